#include "train/trainer.h"

#include "train/evaluate.h"
#include "train/resume.h"

#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <thread>

#include "data/batcher.h"
#include "data/loaders.h"
#include "io/checkpoint.h"
#include "io/exports.h"
#include "io/metrics.h"
#include "model/net.h"
#include "optim/rmsprop.h"
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

}  // namespace

int runTraining(Options& o, Dist& dist) {
    o.resolveDefaults(dist.size());
    // Every rank must use rank 0's seed (the clock-based default differs per process).
    dist.broadcast(&o.resolvedSeed, sizeof o.resolvedSeed);
    uint64_t seed = o.resolvedSeed;

    const std::string device = "cpu";
    if (o.device == "auto") log::info("device: auto -> cpu (this build has no CUDA backend)\n");
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

    NetConfig nc;
    nc.batch = B;
    nc.h = train.h, nc.w = train.w, nc.c = train.c, nc.classes = train.numClasses;
    nc.dropout = !o.noDropout;
    Net net(nc);
    const size_t P = net.paramFloats();

    RmsPropConfig oc;
    oc.lr = o.resolvedLr;
    oc.decay = o.decay;
    RmsProp opt(oc, P);

    // Horovod: everyone starts from rank 0's initial weights.
    glorotInit(net.params(), net.weights(), seed);
    int startEpoch = 0;
    const std::string ckptDir = o.outDir + "/checkpoints";
    dist.broadcastFloats(net.weights(), P);
    net.syncWeights();
    if (o.resume) {
        ResumeState rs = resumeFromCheckpoint(ckptDir, net, opt, dist);
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
    Batcher batcher(train, B, dist.rank(), W, seed, aug);
    const int64_t steps = batcher.stepsPerEpoch();
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
            .add("params", int64_t(net.params().count()));
        record("info", j);
    }
    log::info("traindesk-trainer: %s %lldx%dx%dx%d train, %lld test; %d worker(s) x %d thread(s) on %s; batch %d/worker, "
              "lr %g, %d epoch(s), %lld steps/epoch, %zu parameters\n",
              data.name.c_str(), (long long)train.n, train.h, train.w, train.c, (long long)test.n, W, threads,
              device.c_str(), B, o.resolvedLr, epochs, (long long)steps, net.params().count());

    std::vector<uint64_t> positions(static_cast<size_t>(B));
    float* grads = net.grads();
    const float invW = 1.0f / float(W);
    const double flopsPerImage = net.flopsPerTrainStep() / B;
    int64_t globalStep = opt.iterations();
    bool stop = o.maxSteps > 0 && globalStep >= o.maxSteps;
    EvalResult lastVal;
    bool haveVal = false;
    double trainSeconds = 0;
    int64_t trainImages = 0;
    int64_t profileSteps = 0;
    struct {
        double data = 0, compute = 0, allreduce = 0, optimizer = 0, sync = 0;
    } phases;

    for (int epoch = startEpoch; epoch < epochs && !stop; ++epoch) {
        log::info("Epoch %d/%d\n", epoch + 1, epochs);
        batcher.startEpoch(epoch);
        const uint64_t dropKey = rng::key(seed, rng::kDropout, uint64_t(epoch));
        double epLoss = 0, epCorrect = 0, epCount = 0;    // since epoch start (global)
        double winLoss = 0, winCorrect = 0, winCount = 0;  // since last record
        Timer epochTimer, window;
        int64_t step = 0;
        for (; step < steps; ++step) {
            Timer phase;
            batcher.trainBatch(step, net.input(), net.labels(), positions.data());
            phases.data += phase.seconds();
            phase.reset();
            LossResult r = net.forward(true, B, dropKey, positions.data());
            net.backward();
            phases.compute += phase.seconds();
            phase.reset();
            grads[P] = float(r.lossSum);
            grads[P + 1] = float(r.correct);
            grads[P + 2] = float(B);
            // One all-reduce per step: gradients plus this step's metric sums.
            dist.allreduceSum(grads, P + Net::kExtra);
            phases.allreduce += phase.seconds();
            phase.reset();
            if (globalStep == 0 && !o.dumpGrads.empty() && dist.root()) {
                std::vector<float> avg(grads, grads + P);
                scaleBuffer(avg.data(), P, invW);
                writeRaw(o.dumpGrads, avg.data(), P);
            }
            const double lrUsed = opt.currentLr();
            opt.step(net.weights(), grads, invW);  // the average: sum / workers
            phases.optimizer += phase.seconds();
            phase.reset();
            net.syncWeights();
            phases.sync += phase.seconds();
            ++globalStep;
            if (o.profile) ++profileSteps;
            epLoss += grads[P], epCorrect += grads[P + 1], epCount += grads[P + 2];
            winLoss += grads[P], winCorrect += grads[P + 1], winCount += grads[P + 2];
            stop = o.maxSteps > 0 && globalStep >= o.maxSteps;
            if ((step + 1) % o.logEvery == 0 || step + 1 == steps || stop) {
                const double secs = window.seconds();
                const double ips = winCount / std::max(secs, 1e-9);
                JsonObject j;
                j.add("epoch", epoch + 1)
                    .add("step", step + 1)
                    .add("global_step", globalStep)
                    .add("loss", winLoss / winCount)
                    .add("acc", winCorrect / winCount)
                    .add("lr", lrUsed)
                    .add("images_per_sec", ips, "%.1f")
                    .add("workers", W);
                record("train", j);
                const double elapsed = epochTimer.seconds();
                const double eta = elapsed / double(step + 1) * double(steps - step - 1);
                log::info("%6lld/%lld %s - ETA: %.0fs - loss: %.4f - acc: %.4f - %.1f img/s (%.1f GFLOP/s)\n",
                          (long long)(step + 1), (long long)steps, progressBar(step + 1, steps).c_str(), eta,
                          epLoss / epCount, epCorrect / epCount, ips, ips * flopsPerImage / 1e9);
                winLoss = winCorrect = winCount = 0;
                window.reset();
            }
            if (stop) break;
        }
        const double epSecs = epochTimer.seconds();
        trainSeconds += epSecs;
        trainImages += int64_t(epCount);
        Timer evalTimer;
        lastVal = evaluate(net, test, dist);
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
        if (complete && !o.noSave && dist.root()) saveCheckpoint(ckptDir, net, opt, epoch + 1, seed, B, W);
    }
    if (!haveVal) lastVal = evaluate(net, test, dist);

    if (o.profile && profileSteps > 0) {
        printProfile(net, profileSteps, B);
        const double n = double(profileSteps) / 1e3;
        log::info("Per step outside the layers (ms): batch assembly+augment %.3f, forward+backward %.3f, all-reduce %.3f, "
                  "RMSprop %.3f, weight reorders %.3f\n",
                  phases.data / n, phases.compute / n, phases.allreduce / n, phases.optimizer / n, phases.sync / n);
    }

    if (dist.root()) {
        if (!o.noSave) {
            const std::string models = o.outDir + "/saved_models";
            makeDirs(models);
            const std::string h5 = models + "/keras_cifar10_trained_model.h5";
            saveKerasH5(h5, net, oc.lr, oc.decay);
            saveOnnx(models + "/model.onnx", net);
            log::info("Saved trained model at %s\n", h5.c_str());
        }
        if (!o.dumpWeights.empty()) writeRaw(o.dumpWeights, net.weights(), P);
        if (!o.dumpTestSet.empty()) {
            std::vector<float> xs(size_t(test.n) * test.imageSize());
            for (size_t i = 0; i < xs.size(); ++i) xs[i] = test.pixels[i] * (1.0f / 255.0f);
            writeRaw(o.dumpTestSet, xs.data(), xs.size());
        }
        if (!o.dumpPredictions.empty()) {
            std::vector<float> probs = predictAll(net, test);
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
    dist.barrier();
    return 0;
}

}  // namespace td
