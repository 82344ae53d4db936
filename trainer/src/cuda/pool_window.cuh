#pragma once
// The 2x2 max-pooling window (device code shared by pool.cu and fused.cu).
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"

namespace td::cuda {

// Index of the first maximum of a window's 4 values (row-major), and that maximum. The
// value is carried beside the index (not read back as v[best]) so that v stays in
// registers: an array indexed at run time would live in local memory.
__device__ inline int firstMaxOf4(const float v[4], float* maxOut) {
    int best = 0;
    float m = v[0];
    for (int k = 1; k < 4; ++k)
        if (v[k] > m) best = k, m = v[k];
    *maxOut = m;
    return best;
}

// Index (0..3, row-major in the window) of the window's first maximum.
__device__ inline int windowArgmax(const float* x, const Tensor4& xt, int n, int c, int ho, int wo, float* maxOut) {
    const long long base = offsetOf(xt, n, c, 2 * ho, 2 * wo);
    const float v[4] = {x[base], x[base + xt.sw], x[base + xt.sh], x[base + xt.sh + xt.sw]};
    return firstMaxOf4(v, maxOut);
}

// The pooled output of window (n, c, ho, wo) of pt from its 4 values (row-major; zero for
// those past an odd edge), with dropout.
__device__ inline void storePooled(const float v[4], float* p, const Tensor4& pt, const DropoutArgs& drop, int n, int c,
                                   int ho, int wo) {
    float m;
    firstMaxOf4(v, &m);
    if (drop.rate > 0.0f) m *= dropoutFactor(drop, dropoutSampleKey(drop, n), uint32_t((ho * pt.w + wo) * pt.c + c));
    p[offsetOf(pt, n, c, ho, wo)] = m;
}

// The backward of window (n, c, ho, wo): gy (the gradient at the pooled, dropped-out output
// `pooled`) goes to the window's first maximum of x where x > 0 and dropout kept the output,
// zero to the rest of the window and, for the last window of a row or column, to the odd
// edge element(s) past it: maxPoolBackward's values for those elements of gx.
__device__ inline void routeWindowGrad(const float* x, const Tensor4& xt, const Tensor4& pt, int n, int c, int ho,
                                       int wo, float pooled, float gy, float dropScale, float* gx) {
    float m;
    const int best = windowArgmax(x, xt, n, c, ho, wo, &m);
    const float g = pooled != 0.0f ? gy * dropScale : 0.0f;
    const int hEnd = ho == pt.h - 1 ? xt.h : 2 * ho + 2, wEnd = wo == pt.w - 1 ? xt.w : 2 * wo + 2;
    for (int h = 2 * ho; h < hEnd; ++h)
        for (int w = 2 * wo; w < wEnd; ++w) {
            const long long off = offsetOf(xt, n, c, h, w);
            const int dh = h - 2 * ho, dw = w - 2 * wo;
            const int k = dh < 2 && dw < 2 ? (dh << 1 | dw) : -1;
            gx[off] = k == best && x[off] > 0.0f ? g : 0.0f;
        }
}

}  // namespace td::cuda
