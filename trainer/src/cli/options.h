#pragma once
// Command-line options of traindesk-trainer. Parsing happens before MPI_Init so that
// --help and bad flags never need an MPI runtime; values that depend on the number of
// workers (epochs, lr) are resolved later by resolveDefaults().
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace td {

struct Options {
    std::string dataDir;
    std::string format = "auto";  // auto | cifar10 | cifar100 | idx | synthetic
    std::string label;            // CIFAR-100: "" (fine) | fine | coarse
    std::optional<int> epochs;    // default ceil(100 / workers)
    int batchSize = 32;           // per worker
    std::optional<double> lr;     // default 1e-4 x workers
    double decay = 1e-6;
    bool augment = true;
    std::string outDir = ".";
    bool resume = false;
    std::optional<uint64_t> seed;  // default: time based, or 1234 with --deterministic
    int threads = 0;               // 0: automatic
    std::string device = "auto";   // auto | cpu | cuda
    bool tf32 = false;             // GPU: TF32 tensor-core math (faster, ~1e-3 relative error)
    std::string gpuKernels = "library";  // GPU: library | fused (cuda/gpu_net.h); the default is
                                         // the path measured faster (library until measured)
    bool skipGpuCheck = false;     // GPU: no self-check against the CPU backend at start-up
    std::string metricsFile;       // default $AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl or DIR/metrics.jsonl
    int logEvery = 20;
    int64_t trainLimit = 0;        // 0: all
    int64_t testLimit = 0;
    int64_t synthTrain = 2048;
    int64_t synthTest = 512;
    int synthH = 32, synthW = 32, synthC = 3;
    bool deterministic = false;
    bool help = false;
    bool version = false;
    // --allreduce-test: time an all-reduce across the ranks instead of training (burn-in).
    bool allreduceTest = false;
    int allreduceMb = 64;          // buffer size per rank
    int allreduceIterations = 10;
    // --gpu-memory-test: write and read back most of each GPU's free memory (burn-in).
    bool gpuMemoryTest = false;

    // Hidden options used by the trainer's own tests and benchmarks (not in --help).
    int64_t maxSteps = 0;          // stop after this many global steps (0: no limit)
    std::string dumpGrads;         // write step-1 averaged gradient (canonical layout) and exit
    std::string dumpWeights;       // write final weights (canonical layout)
    std::string dumpPredictions;   // write test-set softmax outputs of the final model
    std::string dumpTestSet;       // write the test images as float NHWC in [0,1]
    std::string dumpData;          // write the loaded sets (uint8 pixels, labels) before training
    bool noDropout = false;        // disable dropout (reference comparisons)
    bool noSave = false;           // skip saved_models/ and checkpoints/ (benchmarks)
    bool profile = false;          // per-layer timing breakdown on stdout
    bool gpuInfo = false;          // print whether a usable GPU is there and exit (0 yes, 1 no)
    bool forceNccl = false;        // GPU: NCCL all-reduce even with one rank
    bool noOverlap = false;        // GPU: one all-reduce after the backward pass, not overlapped
    bool noGraph = false;          // GPU: launch the step's kernels one by one (no CUDA graph)
    std::string gpuLayout = "nhwc";  // GPU activation layout: nhwc | nchw

    // Resolved values.
    int resolvedEpochs = 0;
    double resolvedLr = 0.0;
    uint64_t resolvedSeed = 0;
    std::string resolvedMetricsFile;

    void resolveDefaults(int workers);
};

// Throws UsageError naming the flag and the value on any problem.
Options parseOptions(const std::vector<std::string>& args);
std::string usage();

}  // namespace td
