#pragma once
// The per-channel sum over (N, H, W) behind every bias gradient, as device code shared by
// bias_act.cu (maskBiasGrad) and fused.cu (the max-pool backward that also yields the bias
// gradient): one fixed partition and summation order, so the sums are deterministic and
// both kernels give the same bits for the same values.
//
// Grid (row chunks, channel tiles), block 32 channels (x) by kSumRowLanes row lanes (y).
// Lane (chunk b, y) adds the rows b*8 + y, stepping by chunks * 8, in order; a block adds its
// 8 lanes in order into partials[b][c]; the last block to finish (a ticket) adds the chunks'
// partials in order into db[c] and leaves the ticket at zero for the next launch.
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"

namespace td::cuda {

constexpr int kSumRowLanes = 8;

// value(off, n, c, h, w): the element's value (it may also store it); called once per
// element of t, with the element's memory offset.
template <typename Value>
__device__ inline void channelSums(const Tensor4& t, float* db, float* partials, unsigned int* ticket, Value value) {
    const int c = blockIdx.y * 32 + threadIdx.x;
    const long long rows = (long long)t.n * t.h * t.w;
    float acc = 0.0f;
    if (c < t.c) {
        for (long long r = (long long)blockIdx.x * kSumRowLanes + threadIdx.y; r < rows;
             r += (long long)gridDim.x * kSumRowLanes) {
            const int n = int(r / ((long long)t.h * t.w));
            const int h = int((r / t.w) % t.h);
            const int w = int(r % t.w);
            acc += value(offsetOf(t, n, c, h, w), n, c, h, w);
        }
    }
    __shared__ float part[kSumRowLanes][33];
    part[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && c < t.c) {
        float s = 0.0f;
        for (int k = 0; k < kSumRowLanes; ++k) s += part[k][threadIdx.x];
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
    for (int cc = threadIdx.y * 32 + threadIdx.x; cc < t.c; cc += 32 * kSumRowLanes) {
        float s = 0.0f;
        for (unsigned int b = 0; b < gridDim.x; ++b) s += __ldcg(&partials[(long long)b * t.c + cc]);
        db[cc] = s;
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) *ticket = 0u;  // ready for the next launch
}

// The same sum of column c of a row-major (rows, cols) matrix g, by one thread, in the order
// channelSums uses with `chunks` row chunks (its gridDim.x): bit for bit its result.
__device__ inline float channelSumSerial(const float* g, long long rows, int cols, int c, unsigned int chunks) {
    float total = 0.0f;
    for (unsigned int b = 0; b < chunks; ++b) {
        float part = 0.0f;
        for (int y = 0; y < kSumRowLanes; ++y) {
            float acc = 0.0f;
            for (long long r = (long long)b * kSumRowLanes + y; r < rows; r += (long long)chunks * kSumRowLanes)
                acc += __ldcg(&g[r * cols + c]);
            part += acc;
        }
        total += part;
    }
    return total;
}

// The grid of channelSums for t.
inline dim3 channelSumsGrid(const Tensor4& t) {
    const long long rows = (long long)t.n * t.h * t.w;
    const unsigned int tiles = unsigned((t.c + 31) / 32);
    long long chunks = (rows + kSumRowLanes * 16 - 1) / (kSumRowLanes * 16);  // >= 16 rows per thread
    const long long cap = 256 / tiles > 1 ? 256 / tiles : 1;
    chunks = chunks < 1 ? 1 : (chunks > cap ? cap : chunks);
    return dim3(unsigned(chunks), tiles);
}

}  // namespace td::cuda
