#pragma once
// What the GPU ranks decide together, before they could diverge (cuda_backend.cpp): the
// activation layout gives the flat gradient buffer its meaning, and NCCL needs CUDA graph
// capture to be uniform over the ranks, so no rank may choose either alone. Plain C++
// over the Dist's collectives, so tests run the same decisions under real MPI ranks with
// the CPU backend and no GPU (tests/trainer/gpu_agreement.cpp).
#include <string>

#include "dist/dist.h"

namespace td {

enum class SetupOutcome {
    Ok,            // the nets were built in the requested layout
    NotSupported,  // cuDNN cannot do this layout here (the only reason to fall back)
    Failed,        // anything else: out of memory, a driver or library error
};

// Collective, after every rank tried to build its nets in `layout`. When set-up failed on
// any rank, every rank throws the same AgreedError naming the lowest failing rank and its
// error (so all end together, no rank waits for a peer). Otherwise true when every rank
// keeps the layout, false when all must take the fallback (rank 0 says why).
bool agreeOnSetup(const Dist& dist, SetupOutcome mine, const std::string& error, const std::string& layout);

// Collective, after every rank tried to capture its step: true when every rank uses its
// CUDA graph, false when none may (rank 0 names the rank that could not, and why).
bool agreeOnGraph(const Dist& dist, bool captured, const std::string& error);

}  // namespace td
