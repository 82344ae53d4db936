// Host-side pieces of the CUDA backend that need no GPU, so they are checked wherever the
// backend is built: the device layout of the parameter buffer (a permutation, applied alike to
// weights, RMSprop state and gradients) and the stride arithmetic of the kernels' tensors.
#include <cstdio>
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "cuda/kernels.h"
#include "cuda/layout.h"
#include "model/params.h"

using namespace td;

namespace {

int g_failures = 0;

void expect(bool cond, const std::string& what) {
    std::printf("  %-60s %s\n", what.c_str(), cond ? "ok" : "FAIL");
    if (!cond) ++g_failures;
}

void testLayout(const NetConfig& cfg, bool nhwc) {
    std::printf("parameter layout %dx%dx%d, %s\n", cfg.h, cfg.w, cfg.c, nhwc ? "NHWC" : "NCHW");
    const ParamTable t = makeParamTable(cfg);
    const size_t P = t.totalFloats();
    std::vector<float> canon(P, 0.0f), dev(P), back(P);
    float v = 1.0f;
    for (const ParamInfo& p : t.all())
        for (size_t k = 0; k < p.size; ++k) canon[p.offset + k] = v++;  // distinct, gaps stay 0
    cuda::canonicalToDevice(t, cfg, nhwc, canon.data(), dev.data());
    cuda::deviceToCanonical(t, cfg, nhwc, dev.data(), back.data());
    expect(back == canon, "device layout round trip is the identity");
    std::vector<float> a = canon, b = dev;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    expect(a == b, "device layout is a permutation");

    // conv2d_2 kernel: Keras HWIO (y, x, i, o) -> OHWI (NHWC) or OIHW (NCHW).
    const ParamInfo& k2 = t.all()[2];
    const int I = 32, O = 32;
    bool ok = true;
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x)
            for (int i = 0; i < I; ++i)
                for (int o = 0; o < O; ++o) {
                    const size_t c = k2.offset + size_t(((y * 3 + x) * I + i) * O + o);
                    const size_t d = k2.offset + (nhwc ? size_t(((o * 3 + y) * 3 + x) * I + i)
                                                       : size_t(((o * I + i) * 3 + y) * 3 + x));
                    ok = ok && dev[d] == canon[c];
                }
    expect(ok, nhwc ? "conv kernels stored OHWI (cuDNN KRSC)" : "conv kernels stored OIHW (cuDNN KCRS)");

    // dense_1 kernel: rows follow the flatten order of pool2's output on the GPU.
    const ParamInfo& d1 = t.all()[8];
    int ph = 0, pw = 0;
    pooledSize(cfg, &ph, &pw);
    ok = true;
    for (int h = 0; h < ph; ++h)
        for (int w = 0; w < pw; ++w)
            for (int c = 0; c < 64; ++c) {
                const size_t canonRow = size_t((h * pw + w) * 64 + c);
                const size_t devRow = nhwc ? canonRow : size_t((c * ph + h) * pw + w);
                for (int u = 0; u < 512; u += 97) ok = ok && dev[d1.offset + devRow * 512 + u] == canon[d1.offset + canonRow * 512 + u];
            }
    expect(ok, nhwc ? "dense_1 rows in Keras (h, w, c) order" : "dense_1 rows in NCHW flatten (c, h, w) order");
    // Everything else is copied in place.
    ok = true;
    for (size_t pi : {1u, 3u, 9u, 10u, 11u}) {
        const ParamInfo& p = t.all()[pi];
        for (size_t k = 0; k < p.size; ++k) ok = ok && dev[p.offset + k] == canon[p.offset + k];
    }
    expect(ok, "biases and dense_2 unchanged");
}

void testTensor4() {
    std::printf("tensor strides\n");
    const cuda::Tensor4 a = cuda::Tensor4::make(2, 3, 4, 5, true), b = cuda::Tensor4::make(2, 3, 4, 5, false);
    expect(a.sc == 1 && a.sw == 3 && a.sh == 15 && a.sn == 60, "NHWC strides");
    expect(b.sw == 1 && b.sh == 5 && b.sc == 20 && b.sn == 60, "NCHW strides");
    expect(a.size() == 120 && cuda::Tensor4::matrix(32, 512).sn == 512, "sizes");
    const cuda::DropoutArgs d = cuda::DropoutArgs::make(0.25f, 1, 7, 32, 0, 1, nullptr);
    expect(d.threshold == 4194304u && d.scale == 1.0f / 0.75f, "dropout threshold and scale (as the CPU's)");
    expect(cuda::DropoutArgs::make(0.0f, 1, 7, 32, 0, 1, nullptr).scale == 1.0f, "no dropout: scale 1");
}

}  // namespace

int main() {
    NetConfig cifar;
    NetConfig mnist;
    mnist.h = mnist.w = 28, mnist.c = 1;
    for (bool nhwc : {true, false}) {
        testLayout(cifar, nhwc);
        testLayout(mnist, nhwc);
    }
    testTensor4();
    std::printf(g_failures == 0 ? "all host-side CUDA backend checks passed\n" : "%d check(s) FAILED\n", g_failures);
    return g_failures == 0 ? 0 : 1;
}
