#include "train/epoch_loop.h"

#include <algorithm>
#include <string>
#include <vector>

#include "io/json.h"
#include "train/resume.h"
#include "train/run_outputs.h"
#include "util/log.h"
#include "util/timer.h"

namespace td {

namespace {

std::string progressBar(int64_t done, int64_t total) {
    const int width = 30;
    int filled = total > 0 ? int(width * done / total) : width;
    std::string bar(size_t(width), '.');
    for (int i = 0; i < filled; ++i) bar[size_t(i)] = '=';
    if (filled < width && filled > 0) bar[size_t(filled)] = '>';
    return "[" + bar + "]";
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

// Loss and accuracy summed since the epoch began (over all ranks).
struct EpochSums {
    double loss = 0, correct = 0, count = 0;
    double meanLoss() const { return loss / std::max(count, 1.0); }
    double meanAcc() const { return correct / std::max(count, 1.0); }
};

// Every --log-every steps (and at the epoch's end or a stop): a "train" record, per-rank
// records with several ranks, and the Keras-like progress line.
void logWindow(const EpochLoopInput& in, int epoch, int64_t step, int64_t globalStep, double lrUsed, Timer& window,
               const Timer& epochTimer, EpochSums& sums) {
    const int64_t steps = in.stepsPerEpoch;
    const int W = in.dist.size();
    auto record = [&](const char* kind, const JsonObject& j) { in.metrics.write(kind, j); };
    const StepSums win = in.backend.takeSums();  // waits for the GPU
    sums.loss += win.loss, sums.correct += win.correct, sums.count += win.count;
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
    if (W > 1) recordPerRank(in.dist, in.backend, secs, epoch + 1, step + 1, globalStep, record);
    const double elapsed = epochTimer.seconds();
    const double eta = elapsed / double(step + 1) * double(steps - step - 1);
    log::info("%6lld/%lld %s - ETA: %.0fs - loss: %.4f - acc: %.4f - %.1f img/s (%.1f GFLOP/s)\n",
              (long long)(step + 1), (long long)steps, progressBar(step + 1, steps).c_str(), eta, sums.meanLoss(),
              sums.meanAcc(), ips, ips * in.backend.flopsPerImage() / 1e9);
    window.reset();
}

// The end of an epoch: evaluation, its records and line, and a checkpoint when it was whole.
void endEpoch(const EpochLoopInput& in, int epoch, int64_t stepsDone, int64_t globalStep, double epochSeconds,
              const EpochSums& sums, TrainingTotals& totals) {
    const int64_t steps = in.stepsPerEpoch;
    Timer evalTimer;
    totals.lastVal = in.backend.evaluate();
    const EvalResult& val = totals.lastVal;
    const double evalSecs = evalTimer.seconds();
    {
        JsonObject j;
        j.add("epoch", epoch + 1).add("global_step", globalStep).add("val_loss", val.loss).add("val_acc", val.acc);
        in.metrics.write("val", j);
    }
    const bool complete = stepsDone >= steps;
    {
        JsonObject j;
        j.add("epoch", epoch + 1)
            .add("global_step", globalStep)
            .add("seconds", epochSeconds, "%.3f")
            .add("eval_seconds", evalSecs, "%.3f")
            .add("loss", sums.meanLoss())
            .add("acc", sums.meanAcc())
            .add("val_loss", val.loss)
            .add("val_acc", val.acc)
            .add("images_per_sec", sums.count / std::max(epochSeconds, 1e-9), "%.1f")
            .add("complete", complete);
        in.metrics.write("epoch", j);
    }
    log::info("%6lld/%lld %s - %.0fs %.0fms/step - loss: %.4f - acc: %.4f - val_loss: %.4f - val_acc: %.4f - "
              "%.1f img/s\n",
              (long long)stepsDone, (long long)steps, progressBar(stepsDone, steps).c_str(), epochSeconds,
              epochSeconds / std::max<int64_t>(stepsDone, 1) * 1e3, sums.meanLoss(), sums.meanAcc(), val.loss, val.acc,
              sums.count / std::max(epochSeconds, 1e-9));
    if (complete && !in.o.noSave && in.dist.root())
        saveCheckpoint(in.o.outDir + "/checkpoints", in.backend, epoch + 1, in.seed, in.o.batchSize, in.dist.size(),
                       in.opt);
}

}  // namespace

TrainingTotals runEpochs(const EpochLoopInput& in) {
    const Options& o = in.o;
    Backend& backend = in.backend;
    TrainingTotals totals;
    int64_t globalStep = backend.iterations();
    totals.firstStep = globalStep;
    bool stop = o.maxSteps > 0 && globalStep >= o.maxSteps;
    bool haveVal = false;
    const int epochs = o.resolvedEpochs;
    for (int epoch = in.startEpoch; epoch < epochs && !stop; ++epoch) {
        log::info("Epoch %d/%d\n", epoch + 1, epochs);
        backend.startEpoch(epoch);
        EpochSums sums;
        Timer epochTimer, window;
        int64_t step = 0;
        for (; step < in.stepsPerEpoch; ++step) {
            const double lrUsed = backend.currentLr();
            backend.trainStep(step);
            if (globalStep == 0 && !o.dumpGrads.empty()) {
                std::vector<float> avg = backend.averagedGradients();
                if (in.dist.root()) writeRaw(o.dumpGrads, avg.data(), backend.paramFloats());
            }
            ++globalStep;
            if (o.profile) ++totals.profileSteps;
            stop = o.maxSteps > 0 && globalStep >= o.maxSteps;
            if ((step + 1) % o.logEvery == 0 || step + 1 == in.stepsPerEpoch || stop)
                logWindow(in, epoch, step, globalStep, lrUsed, window, epochTimer, sums);
            if (stop) break;
        }
        const double epochSeconds = epochTimer.seconds();
        totals.trainSeconds += epochSeconds;
        totals.trainImages += int64_t(sums.count);
        endEpoch(in, epoch, step, globalStep, epochSeconds, sums, totals);
        haveVal = true;
    }
    if (!haveVal) totals.lastVal = backend.evaluate();
    totals.globalStep = globalStep;
    return totals;
}

}  // namespace td
