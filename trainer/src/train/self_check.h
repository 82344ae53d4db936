#pragma once
// The self-check at the start of every GPU run: a few training steps of the run's model on
// a fixed small batch, on the GPU backend and on the CPU backend from the same weights,
// compared layer by layer. A wrong index in a kernel, a layout mix-up or a broken library
// then shows before any real training. Written against the Backend interface only, so the
// tests run the very same comparison with the host-emulated GPU code path as the GPU side
// (tests/trainer/gpu_selfcheck.cpp).
//
// What is compared, in this order, the first disagreement being the one reported:
//   each step: the outputs of conv2d_1 .. dense_1 in forward order (a forward fault is
//   named by the first layer it corrupts), the step's loss (dense_2 + softmax), then the
//   gradients from dense_2 back to conv2d_1 (a backward fault: the first layer, from the
//   output, whose gradient is wrong); after the steps the weights and RMSprop
//   accumulators ("RMSprop").
// Tolerance: max |gpu - cpu| <= kSelfCheckTolerance * max |cpu| per tensor (exact FP32 on
// both sides: the check runs without TF32 whatever the run uses), and every value finite.
// Index errors give differences of the order of the values themselves.
// Decisions within rounding of a tie (train/decision_flips.h): when, after a step's forward
// outputs agreed, a ReLU or a max-pool window was decided differently by the two backends,
// that batch cannot compare gradients; the check starts again on the next of
// kSelfCheckAttempts fixed batches (one batch in a few has one: cuDNN and oneDNN
// round differently). It fails when every batch had one, naming the first.
#include <functional>
#include <memory>
#include <string>

#include "train/backend.h"
#include "util/check.h"

namespace td {

constexpr int kSelfCheckBatch = 8;
constexpr int kSelfCheckSteps = 2;
constexpr double kSelfCheckTolerance = 1e-3;
constexpr int kSelfCheckAttempts = 4;

struct SelfCheckResult {
    bool ok = true;
    std::string layer;  // where it first disagreed: "conv2d_1", ..., "RMSprop", or "set-up"
    std::string error;  // what differed and by how much, or the set-up error
    // The batch had a decision within rounding of a tie (ok is false): try the next one.
    bool ambiguous = false;
    int attempts = 1;        // batches used (runSelfCheck)
    std::string skipped;     // the decision that made the first skipped batch unusable
    double seconds = 0;
    std::string describe() const {
        if (!ok) return layer + ": " + error;
        if (attempts == 1) return "passed";
        return cat("passed on batch ", attempts, " (", skipped, ")");
    }
};

// The fixed batches of attempt `attempt` (0-based): kSelfCheckBatch * kSelfCheckSteps images
// of the run's shape and classes, the same on every machine.
Dataset selfCheckData(const NetConfig& run, int attempt = 0);
// Both backends' set-up: the run's model at the check's batch, no dropout (the GPU's masks
// are drawn differently), FP32, deterministic, no CUDA graph, no NCCL; `local` is this
// rank alone (LocalDist), so the check needs no other rank.
BackendSetup selfCheckSetup(const BackendSetup& run, const Dataset& data, Dist& local);
// Runs the steps on both, from the same weights (Glorot kernels, non-zero biases), and
// compares. Both fresh from the factories, nothing trained yet.
SelfCheckResult compareBackends(Backend& candidate, Backend& reference);

using BackendFactory = std::function<std::unique_ptr<Backend>(const BackendSetup&)>;
// The whole check on this rank: builds the candidate (an error there is reported as the
// "set-up" layer) and the CPU backend, compares, times it all.
SelfCheckResult runSelfCheck(const BackendSetup& run, Dist& local, const BackendFactory& candidate);

}  // namespace td
