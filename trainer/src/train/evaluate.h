#pragma once
// Test-set evaluation and reporting helpers of the CPU backend.
#include <cstdint>
#include <vector>

#include "data/dataset.h"
#include "dist/dist.h"
#include "model/net.h"
#include "train/backend.h"

namespace td {

// Sharded over ranks, exact over the whole set after one small all-reduce.
EvalResult evaluate(Net& net, const Dataset& test, const Dist& dist);
// Softmax outputs for the whole test set on this rank (exports are checked against them).
std::vector<float> predictAll(Net& net, const Dataset& test);
// Per-layer forward/backward times, GFLOP/s and oneDNN kernels (--profile).
void printProfile(Net& net, int64_t steps, int batch);

}  // namespace td
