#pragma once
// The epochs of a run: the steps with their log lines and "train"/"rank" records, then each
// epoch's evaluation, "val"/"epoch" records and checkpoint. docs/METRICS.md names the records.
#include <cstdint>

#include "cli/options.h"
#include "dist/dist.h"
#include "io/metrics.h"
#include "optim/rmsprop.h"
#include "train/backend.h"

namespace td {

struct EpochLoopInput {
    const Options& o;
    Dist& dist;
    Backend& backend;
    MetricsWriter& metrics;  // rank 0's file; the other ranks hold a closed writer
    const RmsPropConfig& opt;  // saved in checkpoints
    uint64_t seed;
    int startEpoch;          // epochs already done (a resumed run)
    int64_t stepsPerEpoch;
};

// What the run did, for its summary.
struct TrainingTotals {
    int64_t firstStep = 0;   // the global step the run started at
    int64_t globalStep = 0;  // and ended at
    EvalResult lastVal;
    double trainSeconds = 0;
    int64_t trainImages = 0;
    int64_t profileSteps = 0;
};

TrainingTotals runEpochs(const EpochLoopInput& in);

}  // namespace td
