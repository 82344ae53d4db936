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
    log::info("  %-22s %9s %9s %9s  %s\n", "layer", "fwd ms", "bwd ms", "GFLOP/s", "oneDNN implementation");
    double total = 0;
    for (const LayerTiming* t : net.timings()) {
        double f = t->fwdSeconds / steps * 1e3, b = t->bwdSeconds / steps * 1e3;
        total += f + b;
        double flops = t->fwdFlops + t->bwdFlops;
        double gf = (f + b) > 0 && flops > 0 ? flops / ((f + b) * 1e-3) / 1e9 : 0;
        log::info("  %-22s %9.3f %9.3f %9.1f  %s\n", t->name.c_str(), f, b, gf, t->impl.c_str());
    }
    log::info("  %-22s %9.3f ms (layers only)\n", "total", total);
}

}  // namespace td
