#pragma once
// Checkpoint glue of the training loop: rank 0 reads or writes, everyone gets the state.
#include <cstdint>
#include <string>

#include "dist/dist.h"
#include "train/backend.h"

namespace td {

struct ResumeState {
    bool found = false;
    int epochsDone = 0;
    int64_t iterations = 0;
    uint64_t seed = 0;  // the interrupted run's seed
};

// Loads the newest checkpoint in dir on rank 0 and broadcasts weights, RMSprop state and
// counters into the backend; returns found=false (and changes nothing) when there is none.
ResumeState resumeFromCheckpoint(const std::string& dir, Backend& backend, const Dist& dist);
// Rank 0 only: pulls the backend's state and writes DIR/epoch-NNNN.ckpt atomically.
void saveCheckpoint(const std::string& dir, Backend& backend, int epochsDone, uint64_t seed, int batch, int workers,
                    const RmsPropConfig& opt);

}  // namespace td
