// Every parameter tensor's analytic gradient (oneDNN backward passes, ReLU/dropout/pool
// backward, softmax-CE gradient) against central finite differences of the loss.
// Runs in double-checked float32, so it compares whole-tensor relative errors on a
// sample of entries rather than single elements (ReLU and max-pool kinks).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "model/net.h"
#include "util/rng.h"

using namespace td;

int main() {
    NetConfig cfg;
    cfg.batch = 4;
    cfg.h = 14, cfg.w = 12, cfg.c = 2;  // odd pooled sizes exercise the dropped edge rows
    cfg.classes = 10;
    cfg.dropout = true;  // masks are keyed, so they are identical across the repeated passes
    Net net(cfg);
    glorotInit(net.params(), net.weights(), 42);
    // Non-zero biases so bias gradients see varied ReLU patterns.
    rng::Stream s(7);
    for (const ParamInfo& p : net.params().all())
        if (p.name == "bias")
            for (size_t k = 0; k < p.size; ++k) net.weights()[p.offset + k] = 0.05f * (2 * s.uniform() - 1);
    net.syncWeights();

    const size_t isz = size_t(cfg.h) * cfg.w * cfg.c;
    std::vector<float> x(cfg.batch * isz);
    for (float& v : x) v = s.uniform();
    std::vector<int32_t> y = {1, 7, 3, 7};
    std::vector<uint64_t> pos = {11, 12, 13, 14};
    const uint64_t key = 99;

    auto loss = [&]() {
        std::copy(x.begin(), x.end(), net.input());
        std::copy(y.begin(), y.end(), net.labels());
        return net.forward(true, cfg.batch, key, pos.data()).lossSum / cfg.batch;
    };
    loss();
    net.backward();
    std::vector<float> analytic(net.grads(), net.grads() + net.paramFloats());

    // Central differences at two step sizes: where they disagree the step crossed a
    // ReLU or max-pool kink and that entry says nothing about the gradient; it is skipped.
    auto fdAt = [&](size_t i, float eps) {
        float* w = net.weights() + i;
        const float orig = *w;
        *w = orig + eps;
        net.syncWeights();
        const double lp = loss();
        *w = orig - eps;
        net.syncWeights();
        const double lm = loss();
        *w = orig;
        net.syncWeights();
        return (lp - lm) / (2.0 * eps);
    };
    int failures = 0;
    const float eps = std::getenv("GC_EPS") ? std::strtof(std::getenv("GC_EPS"), nullptr) : 4e-3f;
    const double tolerance = 1e-2;
    for (const ParamInfo& p : net.params().all()) {
        double num2 = 0, diff2 = 0, worst = 0;
        int used = 0, kinks = 0;
        const size_t samples = std::min<size_t>(p.size, 40);
        for (size_t k = 0; k < samples; ++k) {
            const size_t i = p.offset + (p.size == samples ? k : s.below(p.size));
            const double a = fdAt(i, eps), b = fdAt(i, eps / 2);
            if (std::fabs(a - b) > 0.01 * std::max(std::fabs(a), std::fabs(b)) + 5e-5) {
                ++kinks;
                continue;
            }
            ++used;
            num2 += b * b;
            diff2 += (b - analytic[i]) * (b - analytic[i]);
            worst = std::max(worst, std::fabs(b - analytic[i]));
        }
        const double rel = std::sqrt(diff2) / std::max(std::sqrt(num2), 1e-12);
        const bool ok = used >= int(samples) / 2 && rel < tolerance;
        std::printf("%-10s %-6s entries %2d (kinks skipped %2d) |fd| %.3e relative error %.2e max abs %.1e %s\n",
                    p.layer.c_str(), p.name.c_str(), used, kinks, std::sqrt(num2), rel, worst, ok ? "ok" : "FAIL");
        failures += ok ? 0 : 1;
    }
    if (failures == 0) std::printf("all parameter gradients match finite differences\n");
    return failures == 0 ? 0 : 1;
}
