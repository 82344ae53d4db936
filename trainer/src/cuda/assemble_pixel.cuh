#pragma once
// One pixel of an assembled training or evaluation batch (device code shared by augment.cu
// and first_layer.cu, so that the fused first layer reads exactly the values assembleBatch
// writes): the sample's image and its Keras shift and flip, drawn from the CPU batcher's
// random streams, and the value of output pixel (r, q), channel ch, in the same
// single-precision operations (explicit round-to-nearest intrinsics: nothing fused).
#include "cuda/kernels.h"
#include "util/rng.h"

namespace td::cuda {

struct SampleShift {
    long long image = 0;  // -1: a padding sample of an evaluation batch (all zero)
    bool augment = false, flip = false;
    float dy = 0.0f, dx = 0.0f;
};

// Sample i of the batch a describes (training: from the permutation and the step counters).
__device__ inline SampleShift sampleShift(const AssembleArgs& a, int i) {
    SampleShift s;
    if (!a.perm) {
        s.image = i < a.valid ? a.first + i : -1;
        return s;
    }
    const long long epoch = a.counters->epoch;
    const uint64_t pos = uint64_t((a.counters->stepInEpoch * a.workers + a.rank) * a.batch + i);
    s.image = a.perm[pos];
    if (!a.augment) return s;
    // Keras: tx = U(-hs, hs) * rows, ty = U(-ws, ws) * cols, flip with p = 0.5 (same draws
    // in the same order as Batcher::trainBatch).
    rng::Stream st(rng::key(a.seed, rng::kAugment, uint64_t(epoch), pos));
    s.augment = true;
    s.dy = __fmul_rn(__fmul_rn(__fsub_rn(__fmul_rn(2.0f, st.uniform()), 1.0f), a.heightShift), float(a.h));
    s.dx = __fmul_rn(__fmul_rn(__fsub_rn(__fmul_rn(2.0f, st.uniform()), 1.0f), a.widthShift), float(a.w));
    s.flip = a.flip && st.uniform() < 0.5f;
    return s;
}

// The value at row r, column q (of the assembled image), channel ch.
__device__ inline float assembledPixel(const AssembleArgs& a, const SampleShift& s, int r, int q, int ch) {
    if (s.image < 0) return 0.0f;
    const float scale = 1.0f / 255.0f;
    const uint8_t* src = a.pixels + s.image * ((long long)a.h * a.w * a.c);
    if (!s.augment) return __fmul_rn(float(src[((long long)r * a.w + q) * a.c + ch]), scale);
    // Output (r, q) samples the input at (r + dy, q' + dx), q' = q unflipped, bilinear,
    // edges repeated.
    const int qs = s.flip ? (a.w - 1 - q) : q;
    const float sy = fminf(fmaxf(__fadd_rn(float(r), s.dy), 0.0f), float(a.h - 1));
    const int y0 = int(sy);
    const int y1 = min(y0 + 1, a.h - 1);
    const float fy = __fsub_rn(sy, float(y0));
    const float sx = fminf(fmaxf(__fadd_rn(float(qs), s.dx), 0.0f), float(a.w - 1));
    const int x0 = int(sx);
    const int x1 = min(x0 + 1, a.w - 1);
    const float fx = __fsub_rn(sx, float(x0));
    const float v00 = float(src[((long long)y0 * a.w + x0) * a.c + ch]);
    const float v01 = float(src[((long long)y0 * a.w + x1) * a.c + ch]);
    const float v10 = float(src[((long long)y1 * a.w + x0) * a.c + ch]);
    const float v11 = float(src[((long long)y1 * a.w + x1) * a.c + ch]);
    const float top = __fadd_rn(v00, __fmul_rn(fx, __fsub_rn(v01, v00)));
    const float bot = __fadd_rn(v10, __fmul_rn(fx, __fsub_rn(v11, v10)));
    return __fmul_rn(__fadd_rn(top, __fmul_rn(fy, __fsub_rn(bot, top))), scale);
}

}  // namespace td::cuda
