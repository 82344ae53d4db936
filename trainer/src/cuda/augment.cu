// Batch assembly on the GPU: one kernel reads the resident uint8 data set, applies the
// Keras ImageDataGenerator augmentation (random shifts of up to 10% with nearest fill,
// horizontal flips) and writes float images in [0, 1] in the network's layout. The random
// draws use the same counter-based streams and the same single-precision operations (in
// explicit round-to-nearest intrinsics, so nothing is fused) as the CPU batcher: both
// backends produce bit-identical batches.
#include "cuda/assemble_pixel.cuh"
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"
#include "cuda/runtime_check.h"

namespace td::cuda {

namespace {

__global__ void assembleKernel(AssembleArgs a) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long pixelsPerImage = (long long)a.h * a.w;
    if (idx >= (long long)a.batch * pixelsPerImage) return;
    const int i = int(idx / pixelsPerImage);
    const int r = int((idx % pixelsPerImage) / a.w);
    const int q = int(idx % a.w);
    const SampleShift s = sampleShift(a, i);
    if (r == 0 && q == 0) a.outLabels[i] = s.image < 0 ? 0 : a.labels[s.image];  // padding: label 0
    for (int ch = 0; ch < a.c; ++ch) a.out[offsetOf(a.shape, i, ch, r, q)] = assembledPixel(a, s, r, q, ch);
}

}  // namespace

void assembleBatch(const AssembleArgs& a, cudaStream_t s) {
    const long long n = (long long)a.batch * a.h * a.w;
    TD_LAUNCH(assembleKernel, blocksFor(n, 256), 256, s, a);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
