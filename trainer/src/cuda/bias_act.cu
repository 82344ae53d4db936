// Fused bias + ReLU (+ dropout) after a convolution or GEMM, and its backward: the ReLU
// (and dropout) mask applied to the incoming gradient fused with the bias gradient.
#include "cuda/bias_add.cuh"
#include "cuda/channel_sums.cuh"
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"
#include "cuda/runtime_check.h"

namespace td::cuda {

namespace {

__global__ void biasActKernel(float* y, Tensor4 t, const float* bias, bool relu, DropoutArgs drop) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= t.size()) return;
    int n, c, h, w;
    decode(t, idx, n, c, h, w);
    float v = biasAdd(y[idx], bias, c);
    if (relu) v = fmaxf(v, 0.0f);
    if (drop.rate > 0.0f) v *= dropoutFactor(drop, dropoutSampleKey(drop, n), uint32_t((h * t.w + w) * t.c + c));
    y[idx] = v;
}

__global__ void maskBiasGradKernel(float* g, const float* y, Tensor4 t, bool mask, float scale, float* db,
                                   float* partials, unsigned int* ticket) {
    channelSums(t, db, partials, ticket, [&](long long off, int, int, int, int) {
        float v = g[off];
        if (mask) {
            v = y[off] > 0.0f ? v * scale : 0.0f;
            g[off] = v;
        }
        return v;
    });
}

}  // namespace

size_t ReduceScratch::partialsFloats(const Tensor4& t) { return size_t(channelSumsGrid(t).x) * size_t(t.c); }

void biasActivation(float* y, const Tensor4& t, const float* bias, bool relu, const DropoutArgs& drop, cudaStream_t s) {
    TD_LAUNCH(biasActKernel, blocksFor(t.size(), 256), 256, s, y, t, bias, relu, drop);
    CUDA_CHECK_LAUNCH();
}

void maskBiasGrad(float* g, const float* y, const Tensor4& t, bool mask, float scale, float* db,
                  const ReduceScratch& scratch, cudaStream_t s) {
    TD_LAUNCH(maskBiasGradKernel, channelSumsGrid(t), dim3(32, kSumRowLanes), s, g, y, t, mask, scale, db, scratch.partials,
              scratch.ticket);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
