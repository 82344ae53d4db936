#pragma once
// The compute backend behind the training loop: the CPU one (oneDNN + MPI, cpu_backend.h)
// and the CUDA one (cuDNN + cuBLAS + NCCL, src/cuda/, built as a plugin loaded at run time).
// The loop in trainer.cpp owns epochs, metrics, checkpoints and exports; a backend owns the
// model's compute state and runs whole training steps (batch assembly, forward, backward,
// all-reduce, RMSprop update).
//
// State lives where the backend computes. The host copies of the canonical parameter
// buffer and of the RMSprop accumulators (Keras order and layouts, see model/params.h) are
// what checkpoints, exports and the initial broadcast use: pushState() after the host copies
// changed, pullState() before reading them.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/batcher.h"
#include "data/dataset.h"
#include "dist/dist.h"
#include "io/json.h"
#include "model/params.h"
#include "optim/rmsprop.h"

namespace td {

// Sums over all ranks: training loss (sum over images), correct predictions, images.
struct StepSums {
    double loss = 0, correct = 0, count = 0;
};

// One layer's output of the last training forward pass, NHWC or (N, units).
struct LayerOutput {
    std::string layer;  // Keras name, e.g. "conv2d_1"
    std::vector<float> values;
};

struct EvalResult {
    double loss = 0, acc = 0;
    int64_t count = 0;
};

struct BackendSetup {
    NetConfig net;
    RmsPropConfig opt;
    const Dataset* train = nullptr;
    const Dataset* test = nullptr;
    Dist* dist = nullptr;
    int threads = 1;
    bool deterministic = false;
    bool profile = false;
    // GPU only.
    bool tf32 = false;             // TF32 tensor-core math in convolutions and GEMMs
    bool forceNccl = false;        // NCCL all-reduce even with one rank (tests)
    bool overlapAllreduce = true;  // start the dense layers' all-reduce during the conv backward
    bool useGraph = true;          // capture the step in a CUDA graph
    bool nhwc = true;              // activation layout on the GPU (false: NCHW)
    bool fusedKernels = false;     // --gpu-kernels fused (cuda/gpu_net.h); false: library
};

class Backend {
public:
    virtual ~Backend() = default;

    virtual std::string device() const = 0;       // "cpu" | "cuda"
    virtual std::string description() const = 0;  // one line for the start-up log
    virtual void addInfo(JsonObject& j) const { (void)j; }  // extra fields of the "info" record

    virtual const NetConfig& config() const = 0;
    virtual const ParamTable& params() const = 0;
    size_t paramFloats() const { return params().totalFloats(); }

    // Host copies of the canonical state.
    virtual float* weights() = 0;
    virtual float* accumulators() = 0;
    virtual void pushState() = 0;  // host copies -> compute state
    virtual void pullState() = 0;  // compute state -> host copies

    // Optimizer updates applied so far (the global step) and lr_t of the next update.
    virtual int64_t iterations() const = 0;
    virtual void setIterations(int64_t it) = 0;
    virtual double currentLr() const = 0;

    // Call once before the first epoch (after resume has settled the seed).
    virtual void beginTraining(uint64_t seed, const AugmentParams& aug) = 0;
    virtual void startEpoch(int epoch) = 0;  // 0-based
    // One global step: step-th batch of the epoch on every rank, gradients averaged over
    // ranks, one RMSprop update. May return before the GPU has finished it.
    virtual void trainStep(int64_t step) = 0;
    // Loss/accuracy sums (all ranks) of the steps since the previous call; waits for them.
    virtual StepSums takeSums() = 0;
    // The same for this rank's own batches only (per-rank metrics records).
    virtual StepSums takeLocalSums() = 0;
    // The rank-averaged gradient of the last step, canonical layout (--dump-grads).
    virtual std::vector<float> averagedGradients() = 0;
    // The layers' outputs of the last step's forward pass, in forward order, conv2d_1 to
    // dense_1 (the GPU self-check, train/self_check.h). Waits for the step.
    virtual std::vector<LayerOutput> layerOutputs() = 0;

    // Test set: sharded over ranks, exact after one small all-reduce (collective).
    virtual EvalResult evaluate() = 0;
    // Softmax outputs for the whole test set on this rank (not collective).
    virtual std::vector<float> predictAll() = 0;

    // Training FLOPs per image (forward + backward), for GFLOP/s in the log.
    virtual double flopsPerImage() const = 0;
    // --profile: per-layer breakdown after training (rank 0 prints).
    virtual void printProfile(int64_t steps) = 0;
    // One summary line after training (may be empty).
    virtual std::string summary(int64_t steps, double trainSeconds) const {
        (void)steps;
        (void)trainSeconds;
        return {};
    }
};

std::unique_ptr<Backend> makeCpuBackend(const BackendSetup& setup);

}  // namespace td
