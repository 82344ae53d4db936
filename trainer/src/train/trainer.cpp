#include "train/trainer.h"

#include "train/resume.h"
#include "train/auto_resume.h"

#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

#include "data/batcher.h"
#include "data/loaders.h"
#include "dist/agree.h"
#include "dist/local_dist.h"
#include "io/checkpoint.h"
#include "io/exports.h"
#include "io/metrics.h"
#include "train/backend.h"
#include "train/cuda_plugin.h"
#include "train/self_check.h"
#include "util/check.h"
#include "util/log.h"
#include "util/rng.h"
#include "util/timer.h"

namespace td {

namespace {

// Threads per rank: the CPUs this process may run on; when that is the whole machine
// (no binding by mpirun), share it among the ranks on this node.
int defaultThreads(const Dist& dist) {
    cpu_set_t set;
    CPU_ZERO(&set);
    int allowed = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0) allowed = CPU_COUNT(&set);
    int online = int(sysconf(_SC_NPROCESSORS_ONLN));
    if (allowed <= 0) allowed = online > 0 ? online : 1;
    if (allowed >= online && dist.localSize() > 1) allowed = std::max(1, allowed / dist.localSize());
    return allowed;
}

void writeRaw(const std::string& path, const float* data, size_t n) {
    makeDirs(parentDir(path));
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) TD_FAIL(path, ": cannot create");
    if (std::fwrite(data, sizeof(float), n, f) != n) {
        std::fclose(f);
        TD_FAIL(path, ": write failed");
    }
    std::fclose(f);
}

std::string progressBar(int64_t done, int64_t total) {
    const int width = 30;
    int filled = total > 0 ? int(width * done / total) : width;
    std::string bar(size_t(width), '.');
    for (int i = 0; i < filled; ++i) bar[size_t(i)] = '=';
    if (filled < width && filled > 0) bar[size_t(filled)] = '>';
    return "[" + bar + "]";
}

// --device: auto takes a GPU when every rank has a usable one; cuda insists on it.
bool chooseCuda(const Options& o, const Dist& dist) {
    if (o.device == "cpu") return false;
    const CudaAvailability& a = probeCuda();
    std::string mine = a.reason;
    bool usable = a.usable;
    // NCCL refuses two ranks on one GPU. (With CUDA_VISIBLE_DEVICES set, e.g. per rank by the
    // launcher, the ranks may see different GPUs: then NCCL itself reports duplicates.)
    if (usable && dist.size() > 1 && dist.localSize() > a.devices && !std::getenv("CUDA_VISIBLE_DEVICES")) {
        usable = false;
        mine = cat(dist.localSize(), " ranks on this node but ", a.devices,
                   " usable GPU(s); NCCL needs one GPU per rank");
    }
    const bool everywhere = dist.allOk(usable);
    if (everywhere) return true;
    const std::string why = usable ? std::string("another rank has no usable NVIDIA GPU") : mine;
    if (o.device == "cuda") {
        std::string where = dist.size() > 1 ? cat(" on ", dist.processorName(), " (rank ", dist.rank(), ")") : "";
        throw RuntimeError(cat("--device cuda: no usable NVIDIA GPU", where, ": ", why));
    }
    log::info("device: auto -> cpu (%s)\n", why.c_str());
    return false;
}

// The GPU self-check (train/self_check.h) on every rank's GPU before the real backend
// exists, agreed over the ranks: with --device auto all ranks fall back to the CPU, with
// --device cuda all fail together, naming the rank, the layer and the error.
bool gpuSelfCheckPasses(const Options& o, const BackendSetup& run, const Dist& dist) {
    if (o.skipGpuCheck) {
        log::info("GPU self-check skipped (--skip-gpu-check)\n");
        return true;
    }
    LocalDist local(dist);
    const SelfCheckResult r = runSelfCheck(run, local, [](const BackendSetup& s) { return makeCudaBackend(s); });
    double seconds = r.seconds;  // the mean over the ranks is logged
    dist.allreduceSum(&seconds, 1);
    const double mean = seconds / dist.size();
    const Agreement a = agree(dist, r.ok, r.describe());
    if (a.ok) {
        log::info("GPU self-check passed: %d steps at batch %d on the GPU and the CPU agree within %g (%.2f s)\n",
                  kSelfCheckSteps, kSelfCheckBatch, kSelfCheckTolerance, mean);
        if (r.attempts > 1) log::info("GPU self-check on this rank: %s\n", r.describe().c_str());
        if (mean > 2.0) log::warn(cat("the GPU self-check took ", mean, " s, more than its budget of 2 s"));
        return true;
    }
    const std::string where = dist.size() > 1 ? cat(" on rank ", a.rank, " of ", dist.size()) : std::string();
    char cost[32];
    std::snprintf(cost, sizeof cost, "%.2f s", mean);
    const std::string why = cat("GPU self-check failed", where, " (", cost, "): ", a.message);
    if (o.device == "cuda") throw AgreedError(cat("--device cuda: ", why, " (--skip-gpu-check skips the check)"));
    log::info("device: auto -> cpu (%s)\n", why.c_str());
    return false;
}

// Per-rank records (docs/METRICS.md: "rank" records): each rank's own loss, accuracy and
// throughput over the last log window, gathered to rank 0 in one small collective, so a
// slow or diverging rank shows as its own line in the charts.
template <typename Record>
void recordPerRank(const Dist& dist, Backend& backend, double windowSeconds, int epoch, int64_t step,
                   int64_t globalStep, const Record& record) {
    const StepSums local = backend.takeLocalSums();
    const double mine[4] = {local.loss, local.correct, local.count, windowSeconds};
    std::vector<double> all(dist.root() ? size_t(dist.size()) * 4 : 0);
    dist.gatherToRoot(mine, 4, all.data());
    if (!dist.root()) return;
    for (int r = 0; r < dist.size(); ++r) {
        const double* v = &all[size_t(r) * 4];
        const double count = std::max(v[2], 1.0);
        JsonObject j;
        j.add("rank", r)
            .add("epoch", epoch)
            .add("step", step)
            .add("global_step", globalStep)
            .add("loss", v[0] / count)
            .add("acc", v[1] / count)
            .add("images_per_sec", v[2] / std::max(v[3], 1e-9), "%.1f");
        record("rank", j);
    }
}

}  // namespace

int runTraining(Options& o, Dist& dist) {
    o.resolveDefaults(dist.size());
    // Every rank must use rank 0's seed (the clock-based default differs per process).
    dist.broadcast(&o.resolvedSeed, sizeof o.resolvedSeed);
    uint64_t seed = o.resolvedSeed;

    const bool useCuda = chooseCuda(o, dist);
    const int threads = o.threads > 0 ? o.threads : defaultThreads(dist);
    if (o.deterministic) omp_set_dynamic(0);
    omp_set_num_threads(threads);

    Timer total;
    DataSplit data = loadData(o, seed);
    const Dataset& train = data.train;
    const Dataset& test = data.test;
    const int B = o.batchSize, W = dist.size();
    if (train.n < int64_t(B) * W)
        throw UsageError(cat("--batch-size ", B, ": ", W, " worker(s) x ", B, " = ", int64_t(B) * W,
                             " images per step, but the training set has only ", train.n));

    BackendSetup bs;
    NetConfig& nc = bs.net;
    nc.batch = B;
    nc.h = train.h, nc.w = train.w, nc.c = train.c, nc.classes = train.numClasses;
    nc.dropout = !o.noDropout;
    RmsPropConfig& oc = bs.opt;
    oc.lr = o.resolvedLr;
    oc.decay = o.decay;
    bs.train = &train;
    bs.test = &test;
    bs.dist = &dist;
    bs.threads = threads;
    bs.deterministic = o.deterministic;
    bs.profile = o.profile;
    bs.tf32 = o.tf32;
    bs.forceNccl = o.forceNccl;
    bs.overlapAllreduce = !o.noOverlap;
    bs.useGraph = !o.noGraph;
    bs.nhwc = o.gpuLayout == "nhwc";
    const bool gpu = useCuda && gpuSelfCheckPasses(o, bs, dist);
    std::unique_ptr<Backend> backend = gpu ? makeCudaBackend(bs) : makeCpuBackend(bs);
    const std::string device = backend->device();
    const size_t P = backend->paramFloats();

    // Horovod: everyone starts from rank 0's initial weights.
    glorotInit(backend->params(), backend->weights(), seed);
    int startEpoch = 0;
    const std::string ckptDir = o.outDir + "/checkpoints";
    dist.broadcastFloats(backend->weights(), P);
    backend->pushState();
    // A retried TrainDesk job (TRAINDESK_ATTEMPT > 1) resumes without being told to.
    const AutoResumeChoice autoResume = chooseAutoResume(processAutoResumeInput(o.outDir));
    if (o.resume || autoResume.resume) {
        const std::string from = o.resume ? ckptDir : autoResume.checkpointDir;
        if (!o.resume && dist.root())
            log::info("attempt %s of a TrainDesk job: resuming from %s\n", std::getenv("TRAINDESK_ATTEMPT"), from.c_str());
        ResumeState rs = resumeFromCheckpoint(from, *backend, dist);
        if (rs.found && autoResume.fromPreviousAttempt && !o.noSave && dist.root())
            if (auto file = latestCheckpoint(from)) adoptCheckpoint(*file, ckptDir);
        if (rs.found) {
            startEpoch = rs.epochsDone;
            // Continue the interrupted run's random streams unless a seed was given.
            if (!o.seed && rs.seed != seed) {
                log::info("using the checkpoint's seed %llu\n", (unsigned long long)rs.seed);
                seed = rs.seed;
                o.resolvedSeed = seed;
            }
        }
    }

    AugmentParams aug;
    aug.enabled = o.augment;
    backend->beginTraining(seed, aug);
    const int64_t steps = train.n / (int64_t(B) * W);  // the remainder of each epoch is dropped
    const int epochs = o.resolvedEpochs;

    std::unique_ptr<MetricsWriter> metrics;
    if (dist.root()) metrics = std::make_unique<MetricsWriter>(o.resolvedMetricsFile);
    auto record = [&](const char* kind, const JsonObject& j) {
        if (metrics) metrics->write(kind, j);
    };

    {
        JsonObject j;
        j.add("model", "keras-cifar10-cnn")
            .add("dataset", data.name)
            .raw("input_shape", cat("[", nc.h, ", ", nc.w, ", ", nc.c, "]"))
            .add("train_size", train.n)
            .add("test_size", test.n)
            .add("workers", W)
            .add("device", device)
            .add("threads", threads)
            .add("epochs", epochs)
            .add("start_epoch", startEpoch + 1)
            .add("batch_size", B)
            .add("steps_per_epoch", steps)
            .add("lr", o.resolvedLr)
            .add("decay", o.decay)
            .add("augment", o.augment)
            .add("seed", seed)
            .add("params", int64_t(backend->params().count()));
        backend->addInfo(j);
        record("info", j);
    }
    log::info("traindesk-trainer: %s %lldx%dx%dx%d train, %lld test; %d worker(s) x %s; batch %d/worker, "
              "lr %g, %d epoch(s), %lld steps/epoch, %zu parameters\n",
              data.name.c_str(), (long long)train.n, train.h, train.w, train.c, (long long)test.n, W,
              backend->description().c_str(), B, o.resolvedLr, epochs, (long long)steps,
              backend->params().count());

    const double flopsPerImage = backend->flopsPerImage();
    int64_t globalStep = backend->iterations();
    const int64_t firstStep = globalStep;
    bool stop = o.maxSteps > 0 && globalStep >= o.maxSteps;
    EvalResult lastVal;
    bool haveVal = false;
    double trainSeconds = 0;
    int64_t trainImages = 0;
    int64_t profileSteps = 0;

    for (int epoch = startEpoch; epoch < epochs && !stop; ++epoch) {
        log::info("Epoch %d/%d\n", epoch + 1, epochs);
        backend->startEpoch(epoch);
        double epLoss = 0, epCorrect = 0, epCount = 0;  // since epoch start (global)
        Timer epochTimer, window;
        int64_t step = 0;
        for (; step < steps; ++step) {
            const double lrUsed = backend->currentLr();
            backend->trainStep(step);
            if (globalStep == 0 && !o.dumpGrads.empty()) {
                std::vector<float> avg = backend->averagedGradients();
                if (dist.root()) writeRaw(o.dumpGrads, avg.data(), P);
            }
            ++globalStep;
            if (o.profile) ++profileSteps;
            stop = o.maxSteps > 0 && globalStep >= o.maxSteps;
            if ((step + 1) % o.logEvery == 0 || step + 1 == steps || stop) {
                const StepSums win = backend->takeSums();  // waits for the GPU
                epLoss += win.loss, epCorrect += win.correct, epCount += win.count;
                const double secs = window.seconds();
                const double ips = win.count / std::max(secs, 1e-9);
                JsonObject j;
                j.add("epoch", epoch + 1)
                    .add("step", step + 1)
                    .add("global_step", globalStep)
                    .add("loss", win.loss / win.count)
                    .add("acc", win.correct / win.count)
                    .add("lr", lrUsed)
                    .add("images_per_sec", ips, "%.1f")
                    .add("workers", W);
                record("train", j);
                if (W > 1) recordPerRank(dist, *backend, secs, epoch + 1, step + 1, globalStep, record);
                const double elapsed = epochTimer.seconds();
                const double eta = elapsed / double(step + 1) * double(steps - step - 1);
                log::info("%6lld/%lld %s - ETA: %.0fs - loss: %.4f - acc: %.4f - %.1f img/s (%.1f GFLOP/s)\n",
                          (long long)(step + 1), (long long)steps, progressBar(step + 1, steps).c_str(), eta,
                          epLoss / epCount, epCorrect / epCount, ips, ips * flopsPerImage / 1e9);
                window.reset();
            }
            if (stop) break;
        }
        const double epSecs = epochTimer.seconds();
        trainSeconds += epSecs;
        trainImages += int64_t(epCount);
        Timer evalTimer;
        lastVal = backend->evaluate();
        haveVal = true;
        const double evalSecs = evalTimer.seconds();
        {
            JsonObject j;
            j.add("epoch", epoch + 1).add("global_step", globalStep).add("val_loss", lastVal.loss).add("val_acc", lastVal.acc);
            record("val", j);
        }
        const bool complete = step >= steps;
        {
            JsonObject j;
            j.add("epoch", epoch + 1)
                .add("global_step", globalStep)
                .add("seconds", epSecs, "%.3f")
                .add("eval_seconds", evalSecs, "%.3f")
                .add("loss", epLoss / std::max(epCount, 1.0))
                .add("acc", epCorrect / std::max(epCount, 1.0))
                .add("val_loss", lastVal.loss)
                .add("val_acc", lastVal.acc)
                .add("images_per_sec", epCount / std::max(epSecs, 1e-9), "%.1f")
                .add("complete", complete);
            record("epoch", j);
        }
        log::info("%6lld/%lld %s - %.0fs %.0fms/step - loss: %.4f - acc: %.4f - val_loss: %.4f - val_acc: %.4f - "
                  "%.1f img/s\n",
                  (long long)step, (long long)steps, progressBar(step, steps).c_str(), epSecs,
                  epSecs / std::max<int64_t>(step, 1) * 1e3, epLoss / std::max(epCount, 1.0),
                  epCorrect / std::max(epCount, 1.0), lastVal.loss, lastVal.acc, epCount / std::max(epSecs, 1e-9));
        if (complete && !o.noSave && dist.root()) saveCheckpoint(ckptDir, *backend, epoch + 1, seed, B, W, oc);
    }
    if (!haveVal) lastVal = backend->evaluate();

    if (o.profile && profileSteps > 0) backend->printProfile(profileSteps);

    if (dist.root()) {
        backend->pullState();
        if (!o.noSave) {
            const std::string models = o.outDir + "/saved_models";
            makeDirs(models);
            const std::string h5 = models + "/keras_cifar10_trained_model.h5";
            saveKerasH5(h5, nc, backend->params(), backend->weights(), oc.lr, oc.decay);
            saveOnnx(models + "/model.onnx", nc, backend->params(), backend->weights());
            log::info("Saved trained model at %s\n", h5.c_str());
        }
        if (!o.dumpWeights.empty()) writeRaw(o.dumpWeights, backend->weights(), P);
        if (!o.dumpTestSet.empty()) {
            std::vector<float> xs(size_t(test.n) * test.imageSize());
            for (size_t i = 0; i < xs.size(); ++i) xs[i] = test.pixels[i] * (1.0f / 255.0f);
            writeRaw(o.dumpTestSet, xs.data(), xs.size());
        }
        if (!o.dumpPredictions.empty()) {
            std::vector<float> probs = backend->predictAll();
            writeRaw(o.dumpPredictions, probs.data(), probs.size());
        }
    }
    const double totalSecs = total.seconds();
    {
        JsonObject j;
        j.add("global_step", globalStep)
            .add("val_loss", lastVal.loss)
            .add("val_acc", lastVal.acc)
            .add("seconds", totalSecs, "%.3f")
            .add("train_seconds", trainSeconds, "%.3f")
            .add("images_per_sec", trainImages / std::max(trainSeconds, 1e-9), "%.1f")
            .add("workers", W);
        record("done", j);
    }
    log::info("Test loss: %.4f\nTest accuracy: %.4f\nTotal time: %.1fs, training throughput %.1f img/s\n", lastVal.loss,
              lastVal.acc, totalSecs, trainImages / std::max(trainSeconds, 1e-9));
    if (const std::string line = backend->summary(globalStep - firstStep, trainSeconds); !line.empty())
        log::info("%s\n", line.c_str());
    dist.barrier();
    return 0;
}

}  // namespace td
