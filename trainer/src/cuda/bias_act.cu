// Fused bias + ReLU (+ dropout) after a convolution or GEMM, and its backward: the ReLU
// (and dropout) mask applied to the incoming gradient fused with the bias gradient.
#include <algorithm>

#include "cuda/dropout.cuh"
#include "cuda/kernels.h"
#include "cuda/runtime_check.h"

// A deliberately wrong channel index (bias[c + 1]) for the test that shows the emulated-kernel
// tests catch an off-by-one (tests/trainer/CMakeLists.txt builds that variant); 0 in every
// real build.
#ifndef TD_TEST_FAULT_BIAS_OFFSET
#define TD_TEST_FAULT_BIAS_OFFSET 0
#endif

namespace td::cuda {

namespace {

__global__ void biasActKernel(float* y, Tensor4 t, const float* bias, bool relu, DropoutArgs drop) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= t.size()) return;
    int n, c, h, w;
    decode(t, idx, n, c, h, w);
    float v = y[idx] + bias[c + TD_TEST_FAULT_BIAS_OFFSET];
    if (relu) v = fmaxf(v, 0.0f);
    if (drop.rate > 0.0f) v *= dropoutFactor(drop, dropoutSampleKey(drop, n), uint32_t((h * t.w + w) * t.c + c));
    y[idx] = v;
}

// Block: 32 channels (x) by 8 row lanes (y); grid: (row chunks, channel tiles).
constexpr int kRowLanes = 8;

__global__ void maskBiasGradKernel(float* g, const float* y, Tensor4 t, bool mask, float scale, float* db,
                                   float* partials, unsigned int* ticket) {
    const int c = blockIdx.y * 32 + threadIdx.x;
    const long long rows = (long long)t.n * t.h * t.w;
    float acc = 0.0f;
    if (c < t.c) {
        for (long long r = (long long)blockIdx.x * kRowLanes + threadIdx.y; r < rows;
             r += (long long)gridDim.x * kRowLanes) {
            const int n = int(r / ((long long)t.h * t.w));
            const int h = int((r / t.w) % t.h);
            const int w = int(r % t.w);
            const long long off = offsetOf(t, n, c, h, w);
            float v = g[off];
            if (mask) {
                v = y[off] > 0.0f ? v * scale : 0.0f;
                g[off] = v;
            }
            acc += v;
        }
    }
    __shared__ float part[kRowLanes][33];
    part[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && c < t.c) {
        float s = 0.0f;
        for (int k = 0; k < kRowLanes; ++k) s += part[k][threadIdx.x];
        partials[(long long)blockIdx.x * t.c + c] = s;
    }
    // Last block done sums the partials in a fixed order (deterministic).
    __threadfence();
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        const unsigned int done = atomicAdd(ticket, 1u);
        last = done == gridDim.x * gridDim.y - 1;
    }
    __syncthreads();
    if (!last) return;
    for (int cc = threadIdx.y * 32 + threadIdx.x; cc < t.c; cc += 32 * kRowLanes) {
        float s = 0.0f;
        for (unsigned int b = 0; b < gridDim.x; ++b) s += __ldcg(&partials[(long long)b * t.c + cc]);
        db[cc] = s;
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) *ticket = 0u;  // ready for the next launch
}

dim3 reduceGrid(const Tensor4& t) {
    const long long rows = (long long)t.n * t.h * t.w;
    const unsigned int tiles = unsigned((t.c + 31) / 32);
    long long chunks = (rows + kRowLanes * 16 - 1) / (kRowLanes * 16);  // >= 16 rows per thread
    const long long cap = std::max<long long>(1, 256 / tiles);
    chunks = std::max<long long>(1, std::min(chunks, cap));
    return dim3(unsigned(chunks), tiles);
}

}  // namespace

size_t ReduceScratch::partialsFloats(const Tensor4& t) { return size_t(reduceGrid(t).x) * size_t(t.c); }

void biasActivation(float* y, const Tensor4& t, const float* bias, bool relu, const DropoutArgs& drop, cudaStream_t s) {
    TD_LAUNCH(biasActKernel, blocksFor(t.size(), 256), 256, s, y, t, bias, relu, drop);
    CUDA_CHECK_LAUNCH();
}

void maskBiasGrad(float* g, const float* y, const Tensor4& t, bool mask, float scale, float* db,
                  const ReduceScratch& scratch, cudaStream_t s) {
    TD_LAUNCH(maskBiasGradKernel, reduceGrid(t), dim3(32, kRowLanes), s, g, y, t, mask, scale, db, scratch.partials,
              scratch.ticket);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
