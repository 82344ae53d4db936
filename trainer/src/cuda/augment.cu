// Batch assembly on the GPU: one kernel reads the resident uint8 data set, applies the
// Keras ImageDataGenerator augmentation (random shifts of up to 10% with nearest fill,
// horizontal flips) and writes float images in [0, 1] in the network's layout. The random
// draws use the same counter-based streams and the same single-precision operations (in
// explicit round-to-nearest intrinsics, so nothing is fused) as the CPU batcher: both
// backends produce bit-identical batches.
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"
#include "cuda/runtime_check.h"
#include "util/rng.h"

namespace td::cuda {

namespace {

__global__ void assembleKernel(AssembleArgs a) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long pixelsPerImage = (long long)a.h * a.w;
    if (idx >= (long long)a.batch * pixelsPerImage) return;
    const int i = int(idx / pixelsPerImage);
    const int r = int((idx % pixelsPerImage) / a.w);
    const int q = int(idx % a.w);
    const float scale = 1.0f / 255.0f;

    long long image = 0;
    uint64_t pos = 0;
    long long epoch = 0;
    if (a.perm) {
        epoch = a.counters->epoch;
        pos = uint64_t((a.counters->stepInEpoch * a.workers + a.rank) * a.batch + i);
        image = a.perm[pos];
    } else {
        if (i >= a.valid) {  // padding of the last evaluation batch
            for (int ch = 0; ch < a.c; ++ch) a.out[offsetOf(a.shape, i, ch, r, q)] = 0.0f;
            if (r == 0 && q == 0) a.outLabels[i] = 0;
            return;
        }
        image = a.first + i;
    }
    const uint8_t* src = a.pixels + image * pixelsPerImage * a.c;
    if (r == 0 && q == 0) a.outLabels[i] = a.labels[image];

    if (!a.augment) {
        const uint8_t* p = src + ((long long)r * a.w + q) * a.c;
        for (int ch = 0; ch < a.c; ++ch) a.out[offsetOf(a.shape, i, ch, r, q)] = __fmul_rn(float(p[ch]), scale);
        return;
    }
    // Keras: tx = U(-hs, hs) * rows, ty = U(-ws, ws) * cols, flip with p = 0.5 (same draws
    // in the same order as Batcher::trainBatch).
    rng::Stream s(rng::key(a.seed, rng::kAugment, uint64_t(epoch), pos));
    const float dy = __fmul_rn(__fmul_rn(__fsub_rn(__fmul_rn(2.0f, s.uniform()), 1.0f), a.heightShift), float(a.h));
    const float dx = __fmul_rn(__fmul_rn(__fsub_rn(__fmul_rn(2.0f, s.uniform()), 1.0f), a.widthShift), float(a.w));
    const bool flip = a.flip && s.uniform() < 0.5f;
    // Output (r, q) samples the input at (r + dy, q + dx), bilinear, edges repeated.
    const float sy = fminf(fmaxf(__fadd_rn(float(r), dy), 0.0f), float(a.h - 1));
    const int y0 = int(sy);
    const int y1 = min(y0 + 1, a.h - 1);
    const float fy = __fsub_rn(sy, float(y0));
    const float sx = fminf(fmaxf(__fadd_rn(float(q), dx), 0.0f), float(a.w - 1));
    const int x0 = int(sx);
    const int x1 = min(x0 + 1, a.w - 1);
    const float fx = __fsub_rn(sx, float(x0));
    const int outQ = flip ? (a.w - 1 - q) : q;
    const uint8_t* p00 = src + ((long long)y0 * a.w + x0) * a.c;
    const uint8_t* p01 = src + ((long long)y0 * a.w + x1) * a.c;
    const uint8_t* p10 = src + ((long long)y1 * a.w + x0) * a.c;
    const uint8_t* p11 = src + ((long long)y1 * a.w + x1) * a.c;
    for (int ch = 0; ch < a.c; ++ch) {
        const float v00 = float(p00[ch]), v01 = float(p01[ch]), v10 = float(p10[ch]), v11 = float(p11[ch]);
        const float top = __fadd_rn(v00, __fmul_rn(fx, __fsub_rn(v01, v00)));
        const float bot = __fadd_rn(v10, __fmul_rn(fx, __fsub_rn(v11, v10)));
        a.out[offsetOf(a.shape, i, ch, r, outQ)] = __fmul_rn(__fadd_rn(top, __fmul_rn(fy, __fsub_rn(bot, top))), scale);
    }
}

}  // namespace

void assembleBatch(const AssembleArgs& a, cudaStream_t s) {
    const long long n = (long long)a.batch * a.h * a.w;
    TD_LAUNCH(assembleKernel, blocksFor(n, 256), 256, s, a);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
