// 2x2 stride-2 max pooling ("valid": an odd last row/column is dropped, as in Keras) with
// the following dropout fused in, and the backward pass with the dropout and the previous
// layer's ReLU mask fused in.
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"
#include "cuda/pool_window.cuh"
#include "cuda/runtime_check.h"

namespace td::cuda {

namespace {

__global__ void poolFwdKernel(const float* x, Tensor4 xt, float* y, Tensor4 yt, DropoutArgs drop) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= yt.size()) return;
    int n, c, ho, wo;
    decode(yt, idx, n, c, ho, wo);
    float m;
    windowArgmax(x, xt, n, c, ho, wo, &m);
    if (drop.rate > 0.0f) m *= dropoutFactor(drop, dropoutSampleKey(drop, n), uint32_t((ho * yt.w + wo) * yt.c + c));
    y[idx] = m;
}

__global__ void poolBwdKernel(const float* x, Tensor4 xt, const float* y, const float* gy, Tensor4 yt, float* gx,
                              float dropScale) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= xt.size()) return;
    int n, c, hi, wi;
    decode(xt, idx, n, c, hi, wi);
    const int ho = hi >> 1, wo = wi >> 1;
    float g = 0.0f;
    if (ho < yt.h && wo < yt.w && x[idx] > 0.0f) {
        float m;
        const int best = windowArgmax(x, xt, n, c, ho, wo, &m);
        if (best == ((hi & 1) << 1 | (wi & 1))) {
            const long long o = offsetOf(yt, n, c, ho, wo);
            // The output is zero where dropout dropped it (or where the max was 0, and then
            // the ReLU mask of x gives zero anyway), else the kept factor is dropScale.
            if (y[o] != 0.0f) g = gy[o] * dropScale;
        }
    }
    gx[idx] = g;
}

}  // namespace

void maxPoolForward(const float* x, const Tensor4& xt, float* y, const Tensor4& yt, const DropoutArgs& drop,
                    cudaStream_t s) {
    TD_LAUNCH(poolFwdKernel, blocksFor(yt.size(), 256), 256, s, x, xt, y, yt, drop);
    CUDA_CHECK_LAUNCH();
}

void maxPoolBackward(const float* x, const Tensor4& xt, const float* y, const float* gy, const Tensor4& yt, float* gx,
                     float dropScale, cudaStream_t s) {
    TD_LAUNCH(poolBwdKernel, blocksFor(xt.size(), 256), 256, s, x, xt, y, gy, yt, gx, dropScale);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
