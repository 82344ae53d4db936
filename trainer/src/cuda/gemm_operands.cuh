#pragma once
// How the fused path's layers read their operands as matrices (implicit GEMM: nothing is
// unfolded in memory). A pixel is (n, h, w) of an activation; a tap is (channel, kh, kw) of
// the 3x3 window (a dense layer: kernel 1, the tap is the input index). The reduction index
// of a tap follows the weights' memory order per output channel: (kh, kw, c) in NHWC (OHWI
// filters), (c, kh, kw) in NCHW (OIHW); a dense kernel is (in, out).
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"

namespace td::cuda {

struct Pixel {
    int n, h, w;
    bool valid;  // false: a padding row of the pooled order (reads as zero)
};
struct Tap {
    long long cOff;  // channel * the tensor's channel stride
    int dh, dw;      // the pixel it reads: (h + dh, w + dw)
    bool ones;       // the bias row of a weight gradient: reads as 1
};

__device__ inline int kernelSize(const GemmLayer& L) { return L.dense ? 1 : 3; }

// Pixel m of t in (n, h, w) order.
__device__ inline Pixel pixelOf(const Tensor4& t, int m) {
    const int hw = t.h * t.w;
    return {m / hw, (m % hw) / t.w, m % t.w, true};
}

// Pixel m of t in the pooled order (n, cell row, cell column, q): the 4 pixels of each 2x2
// window (q row-major) are consecutive; cells cover t rounded up, the pixels past an odd
// edge are padding rows.
__device__ inline Pixel pooledPixelOf(const Tensor4& t, int m) {
    const int cw = (t.w + 1) / 2, ch = (t.h + 1) / 2, q = m & 3, cell = m >> 2;
    const int h = 2 * ((cell / cw) % ch) + (q >> 1), w = 2 * (cell % cw) + (q & 1);
    return {cell / (cw * ch), h, w, h < t.h && w < t.w};
}

// Reduction index k over t's channels (the weights' order), reading (h + sign (kh - pad)).
__device__ inline Tap tapOf(const Tensor4& t, int ks, int pad, int sign, int k) {
    int c, khw;
    if (t.nhwc) {
        c = k % t.c, khw = k / t.c;
    } else {
        c = k / (ks * ks), khw = k % (ks * ks);
    }
    return {c * t.sc, sign * (khw / ks - pad), sign * (khw % ks - pad), false};
}

// The element of t at pixel p shifted by tap k; zero outside t (the convolution's padding).
__device__ inline float patchValue(const float* x, const Tensor4& t, const Pixel& p, const Tap& k) {
    const int h = p.h + k.dh, w = p.w + k.dw;
    if (!p.valid || h < 0 || h >= t.h || w < 0 || w >= t.w) return 0.0f;
    return x[p.n * t.sn + k.cOff + h * t.sh + w * t.sw];
}

// Index of weight (output channel co, tap (c, kh, kw)) of L's weights.
__device__ inline long long weightIndex(const GemmLayer& L, int co, int c, int kh, int kw) {
    if (L.dense) return (long long)c * L.y.c + co;
    const int tap = L.x.nhwc ? (kh * 3 + kw) * L.x.c + c : (c * 3 + kh) * 3 + kw;
    return (long long)co * (9 * L.x.c) + tap;
}
// ... and of output channel co, reduction index r (forward order).
__device__ inline long long weightIndex(const GemmLayer& L, int co, int r) {
    return L.dense ? (long long)r * L.y.c + co : (long long)co * (9 * L.x.c) + r;
}

}  // namespace td::cuda
