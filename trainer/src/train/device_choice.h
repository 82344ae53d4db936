#pragma once
// Where a run computes: the threads per rank, whether every rank takes the GPU, and the GPU
// self-check that must pass before the GPU backend is trusted.
#include "cli/options.h"
#include "dist/dist.h"
#include "train/backend.h"

namespace td {

int defaultThreads(const Dist& dist);

// --device auto|cuda|cpu, agreed over the ranks; throws for --device cuda without a GPU.
bool chooseCuda(const Options& o, const Dist& dist);

// True when the self-check passes on every rank (or is skipped); throws for --device cuda.
bool gpuSelfCheckPasses(const Options& o, const BackendSetup& run, const Dist& dist);

}  // namespace td
