#pragma once
// The training run: data, model, optimiser, distribution, metrics, checkpoints, exports.
#include "cli/options.h"
#include "dist/dist.h"

namespace td {

// Returns the process exit code; throws RuntimeError on failures.
int runTraining(Options& o, Dist& dist);

}  // namespace td
