#include "train/evaluate.h"

#include <algorithm>

#include "data/batcher.h"
#include "util/log.h"

namespace td {

EvalResult evaluate(Net& net, const Dataset& test, const Dist& dist) {
    const int B = net.config().batch;
    int64_t begin = 0, end = 0;
    evalRange(test.n, dist.rank(), dist.size(), &begin, &end);
    double sums[3] = {0, 0, 0};
    for (int64_t i = begin; i < end; i += B) {
        int count = int(std::min<int64_t>(B, end - i));
        plainBatch(test, i, count, B, net.input(), net.labels());
        LossResult r = net.forward(false, count);
        sums[0] += r.lossSum;
        sums[1] += r.correct;
        sums[2] += count;
    }
    dist.allreduceSum(sums, 3);
    EvalResult e;
    e.count = int64_t(sums[2]);
    if (e.count > 0) {
        e.loss = sums[0] / sums[2];
        e.acc = sums[1] / sums[2];
    }
    return e;
}

std::vector<float> predictAll(Net& net, const Dataset& test) {
    const int B = net.config().batch, K = net.config().classes;
    std::vector<float> out(size_t(test.n) * K);
    for (int64_t i = 0; i < test.n; i += B) {
        int count = int(std::min<int64_t>(B, test.n - i));
        plainBatch(test, i, count, B, net.input(), net.labels());
        net.forward(false, count);
        std::copy(net.probabilities(), net.probabilities() + size_t(count) * K, out.begin() + i * K);
    }
    return out;
}

void printProfile(Net& net, int64_t steps, int batch) {
    log::info("Per-layer time per training step (batch %d, averaged over %lld steps):\n", batch, (long long)steps);
    // Means over the steps, then the least time of one step (what a quiet machine would show;
    // GFLOP/s at the least times in the last column).
    // Then the process CPU time per step (all threads): with one thread, or sleeping waits
    // (OMP_WAIT_POLICY=PASSIVE), the cost of the work however loaded the machine is; its
    // GFLOP/CPU-s compares with one core's FMA peak (bench/trainer/peak_flops.cpp).
    log::info("  %-22s %9s %9s %9s %9s %9s %9s %9s %9s %9s  %s\n", "layer", "fwd ms", "bwd ms", "GFLOP/s", "min fwd",
              "min bwd", "GFLOP/s", "fwd cpu", "bwd cpu", "GF/CPU-s", "oneDNN implementation");
    double total = 0, totalMin = 0, totalCpu = 0, flopsAll = 0;
    auto rate = [](double flops, double ms) { return ms > 0 && flops > 0 ? flops / (ms * 1e-3) / 1e9 : 0.0; };
    for (const LayerTiming* t : net.timings()) {
        double f = t->fwdSeconds / steps * 1e3, b = t->bwdSeconds / steps * 1e3;
        double fm = t->fwdMin * 1e3, bm = t->bwdMin * 1e3;
        double fc = t->fwdCpu / steps * 1e3, bc = t->bwdCpu / steps * 1e3;
        total += f + b;
        totalMin += fm + bm;
        totalCpu += fc + bc;
        double flops = t->fwdFlops + t->bwdFlops;
        flopsAll += flops;
        log::info("  %-22s %9.3f %9.3f %9.1f %9.3f %9.3f %9.1f %9.3f %9.3f %9.1f  %s\n", t->name.c_str(), f, b,
                  rate(flops, f + b), fm, bm, rate(flops, fm + bm), fc, bc, rate(flops, fc + bc), t->impl.c_str());
    }
    log::info("  %-22s %9.3f ms (layers only); sum of the least per layer %.3f ms; CPU %.3f ms = %.1f GFLOP/CPU-s\n",
              "total", total, totalMin, totalCpu, rate(flopsAll, totalCpu));
}

}  // namespace td
