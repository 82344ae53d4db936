#include "cli/options.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

#include "util/check.h"

namespace td {

namespace {

int64_t parseInt(const std::string& flag, const std::string& v, int64_t lo, int64_t hi) {
    char* end = nullptr;
    errno = 0;
    long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno == ERANGE)
        throw UsageError(cat(flag, ": expected an integer, got '", v, "'"));
    if (x < lo || x > hi)
        throw UsageError(cat(flag, ": value ", x, " out of range [", lo, ", ", hi, "]"));
    return x;
}

uint64_t parseU64(const std::string& flag, const std::string& v) {
    char* end = nullptr;
    errno = 0;
    unsigned long long x = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || v[0] == '-' || *end != '\0' || errno == ERANGE)
        throw UsageError(cat(flag, ": expected a non-negative integer, got '", v, "'"));
    return x;
}

double parseDouble(const std::string& flag, const std::string& v, double lo, bool loOpen) {
    char* end = nullptr;
    double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !std::isfinite(x))
        throw UsageError(cat(flag, ": expected a number, got '", v, "'"));
    if (loOpen ? !(x > lo) : !(x >= lo))
        throw UsageError(cat(flag, ": value ", v, " must be ", loOpen ? "> " : ">= ", lo));
    return x;
}

std::string oneOf(const std::string& flag, const std::string& v, std::initializer_list<const char*> allowed) {
    std::string list;
    for (const char* a : allowed) {
        if (v == a) return v;
        list += list.empty() ? a : std::string("|") + a;
    }
    throw UsageError(cat(flag, ": expected ", list, ", got '", v, "'"));
}

}  // namespace

std::string usage() {
    return R"(Usage: traindesk-trainer [options]
       mpirun -np N traindesk-trainer [options]

Trains the CIFAR-10 Keras/Horovod tutorial CNN (conv32-conv32-pool-conv64-conv64-pool-
dense512-dense10) with RMSprop, data-parallel over MPI ranks.

Data:
  --data DIR              data set directory
  --data ARCHIVE          or a data set archive (cifar-10-python.tar.gz, ...)
  --format F              cifar10 | cifar100 | idx | synthetic (default: detected
                          from DIR; synthetic when --data is not given). CIFAR is
                          read in its binary or python version, unpacked or not
  --label L               CIFAR-100: fine (100 classes, default) | coarse (20)
  --train-limit N         use only the first N training images
  --test-limit N          use only the first N test images
  --synthetic-train N     synthetic training images (default 2048)
  --synthetic-test N      synthetic test images (default 512)
  --synthetic-shape HxWxC synthetic image shape (default 32x32x3)
  --no-augment            no random shifts and flips
Training:
  --epochs N              epochs (default ceil(100 / workers))
  --batch-size N          images per worker per step (default 32)
  --lr X                  learning rate (default 1e-4 x workers)
  --decay X               time-based learning-rate decay (default 1e-6)
  --seed N                random seed (default: from the clock; 1234 with --deterministic)
  --deterministic         reproducible run: fixed default seed, fixed threads
  --resume                continue from the last checkpoint in DIR/checkpoints
Compute:
  --device D              auto | cpu | cuda (default auto: a GPU when one is usable)
  --tf32                  GPU: allow TF32 tensor-core math (faster; default exact FP32)
  --gpu-kernels K         GPU: library | fused (fewer, bigger kernels; default library)
  --skip-gpu-check        GPU: skip the self-check that first compares a few steps on
                          the GPU with the CPU (auto falls back to the CPU when they
                          disagree, cuda fails)
  --threads N             compute threads per rank (default: cores / ranks on the node))"
#if !(defined(TRAINDESK_HAVE_CUDA) && TRAINDESK_HAVE_CUDA)
           R"(
                          (this build has no CUDA backend: cpu only))"
#endif
           R"(
Output:
  --dir DIR               output directory (default .): saved_models/, checkpoints/
  --metrics-file PATH     JSON-lines metrics (default $AZ_BATCHAI_STDOUTERR_DIR/metrics.jsonl
                          when set, else DIR/metrics.jsonl)
  --log-every N           a train metrics record every N steps (default 20)
  --version               the trainer's version and whether its CUDA backend was built
Burn-in (no training):
  --allreduce-test        time an all-reduce of --allreduce-mb MB (default 64) per rank,
                          --allreduce-iterations times (default 10), across the ranks:
                          NCCL between GPUs (--device cuda, or auto with a GPU), else MPI;
                          prints one JSON line with the bandwidth on rank 0
  --gpu-memory-test       write and read back 90% of each GPU's free memory with two
                          patterns; one JSON line per GPU (no MPI)
  --help                  this text

Exit codes: 0 success, 1 run-time error (data, I/O, MPI, no usable GPU), 2 bad command line.
)";
}

Options parseOptions(const std::vector<std::string>& args) {
    Options o;
    using Handler = std::function<void(const std::string& flag, const std::string& v)>;
    struct Spec { bool takesValue; Handler fn; };
    std::map<std::string, Spec> specs = {
        {"--data", {true, [&](auto&, auto& v) { o.dataDir = v; }}},
        {"--format", {true, [&](auto& f, auto& v) { o.format = oneOf(f, v, {"cifar10", "cifar100", "idx", "synthetic"}); }}},
        {"--label", {true, [&](auto& f, auto& v) { o.label = oneOf(f, v, {"fine", "coarse"}); }}},
        {"--epochs", {true, [&](auto& f, auto& v) { o.epochs = int(parseInt(f, v, 1, 1000000)); }}},
        {"--batch-size", {true, [&](auto& f, auto& v) { o.batchSize = int(parseInt(f, v, 1, 65536)); }}},
        {"--lr", {true, [&](auto& f, auto& v) { o.lr = parseDouble(f, v, 0.0, true); }}},
        {"--decay", {true, [&](auto& f, auto& v) { o.decay = parseDouble(f, v, 0.0, false); }}},
        {"--no-augment", {false, [&](auto&, auto&) { o.augment = false; }}},
        {"--dir", {true, [&](auto& f, auto& v) {
             if (v.empty()) throw UsageError(cat(f, ": empty path"));
             o.outDir = v; }}},
        {"--resume", {false, [&](auto&, auto&) { o.resume = true; }}},
        {"--seed", {true, [&](auto& f, auto& v) { o.seed = parseU64(f, v); }}},
        {"--threads", {true, [&](auto& f, auto& v) { o.threads = int(parseInt(f, v, 1, 4096)); }}},
        {"--device", {true, [&](auto& f, auto& v) { o.device = oneOf(f, v, {"auto", "cpu", "cuda"}); }}},
        {"--tf32", {false, [&](auto&, auto&) { o.tf32 = true; }}},
        {"--gpu-kernels", {true, [&](auto& f, auto& v) { o.gpuKernels = oneOf(f, v, {"library", "fused"}); }}},
        {"--skip-gpu-check", {false, [&](auto&, auto&) { o.skipGpuCheck = true; }}},
        {"--metrics-file", {true, [&](auto& f, auto& v) {
             if (v.empty()) throw UsageError(cat(f, ": empty path"));
             o.metricsFile = v; }}},
        {"--log-every", {true, [&](auto& f, auto& v) { o.logEvery = int(parseInt(f, v, 1, 1000000000)); }}},
        {"--train-limit", {true, [&](auto& f, auto& v) { o.trainLimit = parseInt(f, v, 1, INT64_MAX); }}},
        {"--test-limit", {true, [&](auto& f, auto& v) { o.testLimit = parseInt(f, v, 1, INT64_MAX); }}},
        {"--synthetic-train", {true, [&](auto& f, auto& v) { o.synthTrain = parseInt(f, v, 1, 10000000); }}},
        {"--synthetic-test", {true, [&](auto& f, auto& v) { o.synthTest = parseInt(f, v, 1, 10000000); }}},
        {"--synthetic-shape", {true, [&](auto& f, auto& v) {
             int h = 0, w = 0, c = 0;
             char tail = 0;
             if (std::sscanf(v.c_str(), "%dx%dx%d%c", &h, &w, &c, &tail) != 3 || h < 1 || w < 1 || c < 1 ||
                 h > 4096 || w > 4096 || c > 64)
                 throw UsageError(cat(f, ": expected HxWxC (e.g. 32x32x3), got '", v, "'"));
             o.synthH = h; o.synthW = w; o.synthC = c; }}},
        {"--deterministic", {false, [&](auto&, auto&) { o.deterministic = true; }}},
        {"--help", {false, [&](auto&, auto&) { o.help = true; }}},
        {"--version", {false, [&](auto&, auto&) { o.version = true; }}},
        {"-h", {false, [&](auto&, auto&) { o.help = true; }}},
        // hidden
        {"--max-steps", {true, [&](auto& f, auto& v) { o.maxSteps = parseInt(f, v, 1, INT64_MAX); }}},
        {"--dump-grads", {true, [&](auto&, auto& v) { o.dumpGrads = v; }}},
        {"--dump-weights", {true, [&](auto&, auto& v) { o.dumpWeights = v; }}},
        {"--dump-predictions", {true, [&](auto&, auto& v) { o.dumpPredictions = v; }}},
        {"--dump-test-set", {true, [&](auto&, auto& v) { o.dumpTestSet = v; }}},
        {"--dump-data", {true, [&](auto&, auto& v) { o.dumpData = v; }}},
        {"--no-dropout", {false, [&](auto&, auto&) { o.noDropout = true; }}},
        {"--no-save", {false, [&](auto&, auto&) { o.noSave = true; }}},
        {"--allreduce-test", {false, [&](auto&, auto&) { o.allreduceTest = true; }}},
        {"--gpu-memory-test", {false, [&](auto&, auto&) { o.gpuMemoryTest = true; }}},
        {"--allreduce-mb", {true, [&](auto& f, auto& v) { o.allreduceMb = int(parseInt(f, v, 1, 16384)); }}},
        {"--allreduce-iterations", {true, [&](auto& f, auto& v) { o.allreduceIterations = int(parseInt(f, v, 1, 100000)); }}},
        {"--profile", {false, [&](auto&, auto&) { o.profile = true; }}},
        {"--gpu-info", {false, [&](auto&, auto&) { o.gpuInfo = true; }}},
        {"--force-nccl", {false, [&](auto&, auto&) { o.forceNccl = true; }}},
        {"--no-overlap", {false, [&](auto&, auto&) { o.noOverlap = true; }}},
        {"--no-graph", {false, [&](auto&, auto&) { o.noGraph = true; }}},
        {"--gpu-layout", {true, [&](auto& f, auto& v) { o.gpuLayout = oneOf(f, v, {"nhwc", "nchw"}); }}},
    };

    for (size_t i = 0; i < args.size(); ++i) {
        std::string flag = args[i];
        std::optional<std::string> inlineValue;
        if (auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
            inlineValue = flag.substr(eq + 1);
            flag = flag.substr(0, eq);
        }
        auto it = specs.find(flag);
        if (it == specs.end()) {
            if (flag.rfind("-", 0) == 0) throw UsageError(cat("unknown flag '", flag, "' (see --help)"));
            throw UsageError(cat("unexpected argument '", flag, "' (see --help)"));
        }
        std::string value;
        if (it->second.takesValue) {
            if (inlineValue) {
                value = *inlineValue;
            } else {
                if (i + 1 >= args.size()) throw UsageError(cat(flag, ": missing value"));
                value = args[++i];
            }
        } else if (inlineValue) {
            throw UsageError(cat(flag, ": takes no value, got '", *inlineValue, "'"));
        }
        it->second.fn(flag, value);
    }
    if (o.format != "synthetic" && o.format != "auto" && o.dataDir.empty() && !o.help && !o.version)
        throw UsageError(cat("--format ", o.format, " needs --data DIR"));
#if !(defined(TRAINDESK_HAVE_CUDA) && TRAINDESK_HAVE_CUDA)
    if (o.device == "cuda")
        throw UsageError("--device cuda: this build has no CUDA backend (built without the CUDA Toolkit; "
                         "use --device cpu)");
#endif
    return o;
}

void Options::resolveDefaults(int workers) {
    resolvedEpochs = epochs ? *epochs : (100 + workers - 1) / workers;
    resolvedLr = lr ? *lr : 1e-4 * workers;
    if (seed) {
        resolvedSeed = *seed;
    } else if (deterministic) {
        resolvedSeed = 1234;
    } else {
        resolvedSeed = uint64_t(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000007ull;
    }
    if (!metricsFile.empty()) {
        resolvedMetricsFile = metricsFile;
    } else if (const char* d = std::getenv("AZ_BATCHAI_STDOUTERR_DIR"); d && *d) {
        resolvedMetricsFile = std::string(d) + "/metrics.jsonl";
    } else {
        resolvedMetricsFile = outDir + "/metrics.jsonl";
    }
}

}  // namespace td
