// Every layer's backward pass against central finite differences, layer by layer.
// Each layer is probed with the scalar L = sum(out * R) for a fixed random R, so
// dL/dout = R and the layer's backward must return dL/dinput and dL/dparams. Conv and
// dense layers are linear in their inputs and parameters (ReLU is checked on its own),
// so a large step gives differences free of float32 noise; the non-linear pieces
// (ReLU, max-pool, softmax cross-entropy) use small steps on inputs away from kinks.
// The whole network's gradient is checked against PyTorch in test_torch_step.py.
#include <cmath>
#include <cstring>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <omp.h>

#include "model/conv.h"
#include "model/dense.h"
#include "model/elementwise.h"
#include "model/loss.h"
#include "model/pool.h"
#include "util/rng.h"

using namespace td;

namespace {

rng::Stream g_rng(12345);
int g_failures = 0;
const char* g_expectBwdWeights = nullptr;  // --expect-bwd-weights IMPL: each conv must use it

void fillUniform(float* p, size_t n, float lo, float hi) {
    for (size_t i = 0; i < n; ++i) p[i] = lo + (hi - lo) * g_rng.uniform();
}

size_t floats(const memory& m) { return m.get_desc().get_size() / sizeof(float); }

double dot(const memory& a, const std::vector<float>& r) {
    double s = 0;
    const float* p = ptr(a);
    for (size_t i = 0; i < r.size(); ++i) s += double(p[i]) * r[i];
    return s;
}

// Compares analytic[k] with the central difference of f() when x[k] moves by +-eps,
// on up to `samples` entries; reports the relative error of the sampled vectors.
void compare(const std::string& what, float* x, const float* analytic, size_t n, float eps,
             const std::function<double()>& f, double tol = 1e-3, size_t samples = 48) {
    double num2 = 0, diff2 = 0;
    samples = std::min(samples, n);
    for (size_t s = 0; s < samples; ++s) {
        const size_t k = n == samples ? s : size_t(g_rng.below(n));
        const float orig = x[k];
        x[k] = orig + eps;
        const double lp = f();
        x[k] = orig - eps;
        const double lm = f();
        x[k] = orig;
        const double fd = (lp - lm) / (2.0 * double(eps));
        num2 += fd * fd;
        diff2 += (fd - analytic[k]) * (fd - analytic[k]);
    }
    const double rel = std::sqrt(diff2) / std::max(std::sqrt(num2), 1e-30);
    const bool ok = rel < tol && num2 > 0;
    std::printf("  %-34s |fd| %.3e  relative error %.2e  %s\n", what.c_str(), std::sqrt(num2), rel, ok ? "ok" : "FAIL");
    if (!ok) ++g_failures;
}

Act makeInput(Ctx& ctx, const memory::dims& dims, tag t) {
    Act a;
    a.dims = dims;
    a.val = memory(plain(dims, t), ctx.eng);
    a.grad = memory(plain(dims, t), ctx.eng);
    fillUniform(ptr(a.val), floats(a.val), -1.0f, 1.0f);
    return a;
}

void checkConv(bool same, bool srcAny, int inC, int outC, int height = 7, int width = 6) {
    Ctx ctx;
    const std::string name = std::string("conv ") + (same ? "same" : "valid") + (srcAny ? " (any src)" : " (nhwc src)") +
                             " " + std::to_string(inC) + "->" + std::to_string(outC) + " on " + std::to_string(height) +
                             "x" + std::to_string(width);
    Act in = makeInput(ctx, {3, inC, height, width}, srcAny ? tag::nchw : tag::nhwc);
    std::vector<float> w(9 * inC * outC), b(outC), dw(w.size(), 1e9f), db(b.size(), 1e9f);  // must be overwritten
    fillUniform(w.data(), w.size(), -0.5f, 0.5f);
    fillUniform(b.data(), b.size(), -0.5f, 0.5f);
    Conv2D::Config cfg;
    cfg.outChannels = outC;
    cfg.samePadding = same;
    cfg.relu = false;
    cfg.srcAny = srcAny;
    Conv2D conv(ctx, "conv", in, cfg, w.data(), b.data(), dw.data(), db.data());
    // Kernels: forward / backward-weights / backward-data.
    std::printf("%s: %s\n", name.c_str(), conv.timing.impl.c_str());
    const std::string& impl = conv.timing.impl;
    const size_t a = impl.find(" / "), e = impl.find(" / ", a + 3);
    if (g_expectBwdWeights && impl.substr(a + 3, e == std::string::npos ? std::string::npos : e - a - 3) != g_expectBwdWeights) {
        std::printf("  backward-weights is not %s  FAIL\n", g_expectBwdWeights);
        ++g_failures;
    }
    std::vector<float> r(floats(conv.out.val));
    fillUniform(r.data(), r.size(), -1.0f, 1.0f);
    auto L = [&]() {
        conv.syncWeights(ctx);
        conv.forward(ctx);
        return dot(conv.out.val, r);
    };
    L();
    std::copy(r.begin(), r.end(), ptr(conv.out.grad));
    conv.backward(ctx);
    std::vector<float> dIn(ptr(in.grad), ptr(in.grad) + floats(in.grad));
    if (impl.find(" / own:") != std::string::npos) {
        // The own backward-weights sums each element in one fixed order: the same bits with 1
        // thread and with 3 as with the default count.
        const std::vector<float> dw0 = dw, db0 = db;
        const int threads = omp_get_max_threads();
        for (int t : {1, 3}) {
            omp_set_num_threads(t);
            conv.backward(ctx);
            const bool same = std::memcmp(dw.data(), dw0.data(), dw.size() * sizeof(float)) == 0 &&
                              std::memcmp(db.data(), db0.data(), db.size() * sizeof(float)) == 0;
            std::printf("  weight gradient with %d thread(s) as with %d: %s\n", t, threads, same ? "ok" : "FAIL");
            if (!same) ++g_failures;
        }
        omp_set_num_threads(threads);
    }
    compare("d/d kernel", w.data(), dw.data(), w.size(), 0.25f, L);
    compare("d/d bias", b.data(), db.data(), b.size(), 0.25f, L);
    compare("d/d input", ptr(in.val), dIn.data(), dIn.size(), 0.25f, L);
}

// A first layer (ReLU, no data gradient): the own backward-weights applies the ReLU backward as
// it reads dDst. Its gradients must be bit for bit those of the same layer without ReLU fed the
// gradient masked beforehand (what reluBackward gives), on ReLU outputs with exact zeros.
void checkFirstLayerRelu() {
    Ctx ctx;
    std::printf("first layer with ReLU: backward-weights with the ReLU backward applied as it reads\n");
    Act in = makeInput(ctx, {3, 3, 20, 19}, tag::nhwc);
    std::vector<float> w(9 * 3 * 32), b(32), dw1(w.size()), db1(b.size()), dw2(w.size()), db2(b.size());
    fillUniform(w.data(), w.size(), -0.5f, 0.5f);
    fillUniform(b.data(), b.size(), -0.5f, 0.5f);
    Conv2D::Config cfg;
    cfg.outChannels = 32;
    cfg.needDiffSrc = false;
    cfg.srcAny = false;
    Conv2D withRelu(ctx, "conv", in, cfg, w.data(), b.data(), dw1.data(), db1.data());
    cfg.relu = false;
    Conv2D plainConv(ctx, "conv", in, cfg, w.data(), b.data(), dw2.data(), db2.data());
    std::printf("  %s; layouts %s\n", withRelu.timing.impl.c_str(),
                withRelu.out.grad.get_desc() == plainConv.out.grad.get_desc() ? "same" : "DIFFER");
    withRelu.syncWeights(ctx);
    withRelu.forward(ctx);
    plainConv.syncWeights(ctx);
    plainConv.forward(ctx);  // its copy of the images in the kernel's layout
    const size_t n = floats(withRelu.out.grad);
    fillUniform(ptr(withRelu.out.grad), n, -1.0f, 1.0f);
    size_t zeros = 0;
    for (size_t i = 0; i < n; ++i) {
        const float v = ptr(withRelu.out.val)[i];
        ptr(plainConv.out.grad)[i] = v > 0 ? ptr(withRelu.out.grad)[i] : 0.0f;
        zeros += v == 0;
    }
    withRelu.backward(ctx);
    plainConv.backward(ctx);
    const bool same = std::memcmp(dw1.data(), dw2.data(), dw1.size() * sizeof(float)) == 0 &&
                      std::memcmp(db1.data(), db2.data(), db1.size() * sizeof(float)) == 0;
    const bool ok = same && zeros > n / 4;
    std::printf("  %zu of %zu outputs are 0; gradients %s  %s\n", zeros, n, same ? "identical" : "DIFFER",
                ok ? "ok" : "FAIL");
    if (!ok) ++g_failures;
}

void checkDense(int inN, int outN) {
    Ctx ctx;
    std::printf("dense %d->%d\n", inN, outN);
    Act in = makeInput(ctx, {5, inN}, tag::nc);
    std::vector<float> w(size_t(inN) * outN), b(outN), dw(w.size()), db(b.size());
    fillUniform(w.data(), w.size(), -0.5f, 0.5f);
    fillUniform(b.data(), b.size(), -0.5f, 0.5f);
    Dense d(ctx, "dense", in, outN, false, true, w.data(), b.data(), dw.data(), db.data());
    std::vector<float> r(floats(d.out.val));
    fillUniform(r.data(), r.size(), -1.0f, 1.0f);
    auto L = [&]() {
        d.syncWeights(ctx);
        d.forward(ctx);
        return dot(d.out.val, r);
    };
    L();
    std::copy(r.begin(), r.end(), ptr(d.out.grad));
    d.backward(ctx);
    std::vector<float> dIn(ptr(in.grad), ptr(in.grad) + floats(in.grad));
    compare("d/d kernel", w.data(), dw.data(), w.size(), 0.25f, L);
    compare("d/d bias", b.data(), db.data(), b.size(), 0.25f, L);
    compare("d/d input", ptr(in.val), dIn.data(), dIn.size(), 0.25f, L);
}

void checkPool(int h, int w) {
    Ctx ctx;
    std::printf("max-pool 2x2 on %dx%d\n", h, w);
    Act in = makeInput(ctx, {2, 16, h, w}, tag::nchw);
    // Distinct values at least 0.01 apart: a 1e-3 step never changes which one is the max.
    float* x = ptr(in.val);
    const size_t n = floats(in.val);
    for (size_t i = 0; i < n; ++i) x[i] = 0.01f * float((i * 7919) % n);
    MaxPool2D pool(ctx, "pool", in);
    std::vector<float> r(floats(pool.out.val));
    fillUniform(r.data(), r.size(), -1.0f, 1.0f);
    auto L = [&]() {
        pool.forward(ctx);
        return dot(pool.out.val, r);
    };
    L();
    std::copy(r.begin(), r.end(), ptr(pool.out.grad));
    pool.backward(ctx);
    std::vector<float> dIn(ptr(in.grad), ptr(in.grad) + n);
    compare("d/d input", x, dIn.data(), n, 1e-3f, L, 1e-3, n);
}

// The max-pool backward fused with the ReLU backward before it (pool_relu_bwd.h) against the
// two passes (oneDNN's pooling backward, then reluBackward): bit for bit, on ReLU outputs full of
// ties and zeros (the first maximum in row-major order takes the gradient; a window of zeros
// passes none), odd sizes (the last row/column gets none), in each blocked layout.
void checkPoolRelu(tag layout, int h, int w) {
    Ctx ctx;
    std::printf("max-pool + ReLU backward, fused vs two passes, %dx%d %s\n", h, w,
                layout == tag::nChw8c ? "nChw8c" : layout == tag::nChw16c ? "nChw16c" : "nhwc");
    Act in = makeInput(ctx, {3, 16, h, w}, layout);
    float* x = ptr(in.val);
    const size_t n = floats(in.val);
    for (size_t i = 0; i < n; ++i) x[i] = float(std::max(0, int(g_rng.below(5)) - 2));  // 0, 0, 0, 1, 2
    MaxPool2D separate(ctx, "pool", in), fused(ctx, "pool", in);
    const bool fuses = fused.fuseInputReluBackward();
    if (layout == tag::nChw16c || !__builtin_cpu_supports("avx2")) {
        // Not fused there (nChw16c: oneDNN's two passes are faster): the layer must say so.
        std::printf("  fused: %s  %s\n", fuses ? "yes" : "no", fuses ? "FAIL" : "ok");
        if (fuses) ++g_failures;
        return;
    }
    if (!fuses) {
        std::printf("  the fused kernel was refused  FAIL\n");
        ++g_failures;
        return;
    }
    separate.forward(ctx);
    fused.forward(ctx);
    const size_t m = floats(separate.out.grad);
    fillUniform(ptr(separate.out.grad), m, -1.0f, 1.0f);
    std::copy(ptr(separate.out.grad), ptr(separate.out.grad) + m, ptr(fused.out.grad));
    std::fill(ptr(in.grad), ptr(in.grad) + n, 7.0f);
    separate.backward(ctx);
    reluBackward(in.val, in.grad);
    std::vector<float> want(ptr(in.grad), ptr(in.grad) + n);
    std::fill(ptr(in.grad), ptr(in.grad) + n, 7.0f);  // every element must be written
    fused.backward(ctx);
    size_t differ = 0, nonzero = 0;
    for (size_t i = 0; i < n; ++i) differ += std::memcmp(&want[i], ptr(in.grad) + i, sizeof(float)) != 0, nonzero += want[i] != 0;
    const bool ok = differ == 0 && nonzero > 0;
    std::printf("  %zu of %zu elements differ (%zu gradients passed)  %s\n", differ, n, nonzero, ok ? "ok" : "FAIL");
    if (!ok) ++g_failures;
}

void checkRelu() {
    Ctx ctx;
    std::printf("relu backward\n");
    const memory::dims dims{4, 32};
    memory pre(plain(dims, tag::nc), ctx.eng), val(plain(dims, tag::nc), ctx.eng), grad(plain(dims, tag::nc), ctx.eng);
    const size_t n = 128;
    float* x = ptr(pre);
    for (size_t i = 0; i < n; ++i) x[i] = (g_rng.uniform() < 0.5f ? -1.0f : 1.0f) * (0.1f + g_rng.uniform());
    std::vector<float> r(n);
    fillUniform(r.data(), n, -1.0f, 1.0f);
    auto L = [&]() {
        for (size_t i = 0; i < n; ++i) ptr(val)[i] = std::max(x[i], 0.0f);
        return dot(val, r);
    };
    L();
    std::copy(r.begin(), r.end(), ptr(grad));
    reluBackward(val, grad);
    std::vector<float> an(ptr(grad), ptr(grad) + n);
    compare("d/d pre-activation", x, an.data(), n, 1e-2f, L, 1e-4, n);
}

void checkDropout() {
    Ctx ctx;
    std::printf("dropout backward (rate 0.5)\n");
    const memory::dims dims{4, 64};
    memory in(plain(dims, tag::nc), ctx.eng), grad(plain(dims, tag::nc), ctx.eng);
    const size_t n = 256;
    std::vector<float> x(n), r(n);
    fillUniform(x.data(), n, -1.0f, 1.0f);
    fillUniform(r.data(), n, -1.0f, 1.0f);
    Dropout drop(in, 0.5f, 4);
    const uint64_t pos[4] = {3, 1, 4, 1};
    auto L = [&]() {
        std::copy(x.begin(), x.end(), ptr(in));
        drop.forward(in, 77, pos);
        return dot(in, r);
    };
    L();
    int kept = 0;
    for (size_t i = 0; i < n; ++i) kept += ptr(in)[i] != 0.0f;
    std::copy(r.begin(), r.end(), ptr(grad));
    drop.backward(grad);
    std::vector<float> an(ptr(grad), ptr(grad) + n);
    compare("d/d input", x.data(), an.data(), n, 0.25f, L, 1e-5, n);
    const bool sane = kept > 90 && kept < 166;  // ~Binomial(256, 0.5)
    std::printf("  kept %d of %zu  %s\n", kept, n, sane ? "ok" : "FAIL");
    if (!sane) ++g_failures;
}

void checkSoftmaxCe() {
    std::printf("softmax cross-entropy\n");
    const int B = 6, K = 10, valid = 5;  // the 6th sample is padding: zero gradient
    std::vector<float> z(B * K), p(B * K), g(B * K);
    fillUniform(z.data(), z.size(), -3.0f, 3.0f);
    std::vector<int32_t> y = {0, 9, 3, 3, 7, 1};
    auto L = [&]() { return softmaxCrossEntropy(z.data(), y.data(), B, valid, K, p.data(), nullptr).lossSum / valid; };
    softmaxCrossEntropy(z.data(), y.data(), B, valid, K, p.data(), g.data());
    compare("d/d logits", z.data(), g.data(), z.size(), 1e-2f, L, 1e-3, z.size());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--expect-bwd-weights") {
        g_expectBwdWeights = argv[2];
        // The own AVX2 kernel needs AVX2 and FMA; elsewhere there is nothing to expect.
        if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
            std::printf("SKIPPED: this CPU has no AVX2/FMA\n");
            return 77;
        }
    } else if (argc != 1) {
        std::fprintf(stderr, "usage: trainer_gradcheck [--expect-bwd-weights IMPL]\n");
        return 2;
    }
    checkConv(true, false, 3, 32);
    checkConv(false, true, 32, 32);
    checkConv(true, true, 32, 64);
    checkConv(false, true, 64, 64);
    // Larger images: the backward-weights' position chunks (about 256 outputs) and a partial last one.
    checkConv(true, true, 8, 32, 20, 19);
    checkFirstLayerRelu();
    checkConv(false, false, 1, 16, 19, 23);  // NHWC single-channel: oneDNN's is ref:any, the own kernel takes it
    checkDense(60, 24);
    checkDense(512, 10);
    checkPool(6, 8);
    checkPool(7, 5);  // odd sizes: the last row/column is dropped
    checkPoolRelu(tag::nChw8c, 7, 5);
    checkPoolRelu(tag::nChw16c, 6, 9);
    checkPoolRelu(tag::nhwc, 8, 8);
    checkRelu();
    checkDropout();
    checkSoftmaxCe();
    std::printf(g_failures == 0 ? "all layer gradients match finite differences\n" : "%d check(s) FAILED\n", g_failures);
    return g_failures == 0 ? 0 : 1;
}
