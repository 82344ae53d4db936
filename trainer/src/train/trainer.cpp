#include "train/trainer.h"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include "data/loaders.h"
#include "io/checkpoint.h"
#include "io/json.h"
#include "io/metrics.h"
#include "train/auto_resume.h"
#include "train/backend.h"
#include "train/cuda_plugin.h"
#include "train/device_choice.h"
#include "train/epoch_loop.h"
#include "train/resume.h"
#include "train/run_outputs.h"
#include "util/check.h"
#include "util/log.h"
#include "util/timer.h"

namespace td {

namespace {

void checkBatchFits(const Options& o, const Dataset& train, int workers) {
    const int B = o.batchSize;
    if (train.n < int64_t(B) * workers)
        throw UsageError(cat("--batch-size ", B, ": ", workers, " worker(s) x ", B, " = ", int64_t(B) * workers,
                             " images per step, but the training set has only ", train.n));
}

BackendSetup backendSetup(const Options& o, const DataSplit& data, Dist& dist, int threads) {
    BackendSetup bs;
    NetConfig& nc = bs.net;
    nc.batch = o.batchSize;
    nc.h = data.train.h, nc.w = data.train.w, nc.c = data.train.c, nc.classes = data.train.numClasses;
    nc.dropout = !o.noDropout;
    bs.opt.lr = o.resolvedLr;
    bs.opt.decay = o.decay;
    bs.train = &data.train;
    bs.test = &data.test;
    bs.dist = &dist;
    bs.threads = threads;
    bs.deterministic = o.deterministic;
    bs.profile = o.profile;
    bs.tf32 = o.tf32;
    bs.forceNccl = o.forceNccl;
    bs.overlapAllreduce = !o.noOverlap;
    bs.useGraph = !o.noGraph;
    bs.nhwc = o.gpuLayout == "nhwc";
    bs.fusedKernels = o.gpuKernels == "fused";
    return bs;
}

// Rank 0's initial weights everywhere (as Horovod does), then a checkpoint's state where
// --resume asks or a retried TrainDesk job (TRAINDESK_ATTEMPT > 1) finds one. Returns the
// epochs already done; the seed becomes the checkpoint's unless one was given.
int startingPoint(Options& o, Backend& backend, Dist& dist, uint64_t& seed) {
    glorotInit(backend.params(), backend.weights(), seed);
    dist.broadcastFloats(backend.weights(), backend.paramFloats());
    backend.pushState();
    const std::string ckptDir = o.outDir + "/checkpoints";
    const AutoResumeChoice autoResume = chooseAutoResume(processAutoResumeInput(o.outDir));
    if (!o.resume && !autoResume.resume) return 0;
    const std::string from = o.resume ? ckptDir : autoResume.checkpointDir;
    if (!o.resume && dist.root())
        log::info("attempt %s of a TrainDesk job: resuming from %s\n", std::getenv("TRAINDESK_ATTEMPT"), from.c_str());
    ResumeState rs = resumeFromCheckpoint(from, backend, dist);
    if (rs.found && autoResume.fromPreviousAttempt && !o.noSave && dist.root())
        if (auto file = latestCheckpoint(from)) adoptCheckpoint(*file, ckptDir);
    if (!rs.found) return 0;
    // Continue the interrupted run's random streams unless a seed was given.
    if (!o.seed && rs.seed != seed) {
        log::info("using the checkpoint's seed %llu\n", (unsigned long long)rs.seed);
        seed = rs.seed;
        o.resolvedSeed = seed;
    }
    return rs.epochsDone;
}

void recordRunInfo(const Options& o, const DataSplit& data, const NetConfig& nc, Backend& backend, int workers,
                   int threads, int startEpoch, int64_t steps, uint64_t seed, MetricsWriter& metrics) {
    JsonObject j;
    j.add("model", "keras-cifar10-cnn")
        .add("dataset", data.name)
        .raw("input_shape", cat("[", nc.h, ", ", nc.w, ", ", nc.c, "]"))
        .add("train_size", data.train.n)
        .add("test_size", data.test.n)
        .add("workers", workers)
        .add("device", backend.device())
        .add("threads", threads)
        .add("epochs", o.resolvedEpochs)
        .add("start_epoch", startEpoch + 1)
        .add("batch_size", o.batchSize)
        .add("steps_per_epoch", steps)
        .add("lr", o.resolvedLr)
        .add("decay", o.decay)
        .add("augment", o.augment)
        .add("seed", seed)
        .add("params", int64_t(backend.params().count()));
    backend.addInfo(j);
    metrics.write("info", j);
    log::info("traindesk-trainer: %s %lldx%dx%dx%d train, %lld test; %d worker(s) x %s; batch %d/worker, "
              "lr %g, %d epoch(s), %lld steps/epoch, %zu parameters\n",
              data.name.c_str(), (long long)data.train.n, data.train.h, data.train.w, data.train.c,
              (long long)data.test.n, workers, backend.description().c_str(), o.batchSize, o.resolvedLr,
              o.resolvedEpochs, (long long)steps, backend.params().count());
}

void recordDone(const TrainingTotals& t, int workers, double totalSecs, Backend& backend, MetricsWriter& metrics) {
    const double throughput = t.trainImages / std::max(t.trainSeconds, 1e-9);
    JsonObject j;
    j.add("global_step", t.globalStep)
        .add("val_loss", t.lastVal.loss)
        .add("val_acc", t.lastVal.acc)
        .add("seconds", totalSecs, "%.3f")
        .add("train_seconds", t.trainSeconds, "%.3f")
        .add("images_per_sec", throughput, "%.1f")
        .add("workers", workers);
    metrics.write("done", j);
    log::info("Test loss: %.4f\nTest accuracy: %.4f\nTotal time: %.1fs, training throughput %.1f img/s\n", t.lastVal.loss,
              t.lastVal.acc, totalSecs, throughput);
    if (const std::string line = backend.summary(t.globalStep - t.firstStep, t.trainSeconds); !line.empty())
        log::info("%s\n", line.c_str());
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
    const DataSplit data = loadData(o, seed);
    const int W = dist.size();
    checkBatchFits(o, data.train, W);
    const BackendSetup bs = backendSetup(o, data, dist, threads);
    const bool gpu = useCuda && gpuSelfCheckPasses(o, bs, dist);
    std::unique_ptr<Backend> backend = gpu ? makeCudaBackend(bs) : makeCpuBackend(bs);

    const int startEpoch = startingPoint(o, *backend, dist, seed);
    AugmentParams aug;
    aug.enabled = o.augment;
    backend->beginTraining(seed, aug);
    const int64_t steps = data.train.n / (int64_t(o.batchSize) * W);  // the remainder of each epoch is dropped

    // Rank 0 writes metrics.jsonl; the other ranks' writer stays closed and writes nothing.
    const auto metrics = dist.root() ? std::make_unique<MetricsWriter>(o.resolvedMetricsFile)
                                     : std::make_unique<MetricsWriter>();
    recordRunInfo(o, data, bs.net, *backend, W, threads, startEpoch, steps, seed, *metrics);

    const TrainingTotals totals = runEpochs({o, dist, *backend, *metrics, bs.opt, seed, startEpoch, steps});
    if (o.profile && totals.profileSteps > 0) backend->printProfile(totals.profileSteps);
    if (dist.root()) saveRunOutputs(o, bs.net, bs.opt, *backend, data.test, data.name);
    recordDone(totals, W, total.seconds(), *backend, *metrics);
    dist.barrier();
    return 0;
}

}  // namespace td
