#pragma once
// The tile loop of the fused path's own convolutions and dense layers (implicit GEMM, FP32):
// one block of kGemmThreads threads computes a kTileM x kTileN tile of C = A B over a range
// of the reduction index k, through shared memory kTileK columns at a time; thread t holds
// the 4 x 4 outputs rows 4 (t % 16) .. +3, columns 4 (t / 16) .. +3 of the tile, so 4
// consecutive rows (a 2x2 pooling window, when the rows are ordered so) meet in one thread.
//
// Summation order (what the tests reproduce on the host): each output adds a(m, k) b(k, n)
// for k ascending from the range's start, starting from 0. Split ranges (splitK) are then
// added in split order, starting from 0. The products are FP32 (FMA on a GPU, where nvcc
// contracts; separate multiply and add in the host emulation, -ffp-contract=off).
//
// An operand Op supplies, for A (M x K): aRow(m) (per-row state, made once per block),
// aK(k) (per-k state, once per k step) and a(row, kstate); for B (K x N): bCol(n), bK(k) and
// b(col, kstate). The loader keeps m < M, n < N and k inside the range; out of it: zero.
#include "cuda/kernels.h"

namespace td::cuda {

constexpr int kTileM = 64, kTileN = 32, kTileK = 16;
static_assert(kGemmThreads == 128 && kTileM * kTileN == kGemmThreads * 16, "16 outputs per thread");
constexpr int kARowsPerThread = kTileM * kTileK / kGemmThreads;  // 8
constexpr int kBKsPerThread = kTileN * kTileK / kGemmThreads;    // 4

__device__ inline int tileRow(int t) { return 4 * (t % 16); }
__device__ inline int tileCol(int t) { return 4 * (t / 16); }

// The shared tiles are double-buffered: step i computes from one buffer while its loads of
// step i + 1 go to the other, so one barrier per step (the other buffer was last read in step
// i - 1, before that step's barrier).
template <class Op>
__device__ void gemmTile(const Op& op, int M, int N, int m0, int n0, int kBegin, int kEnd, float acc[4][4]) {
    __shared__ float As[2][kTileK][kTileM];
    __shared__ float Bs[2][kTileK][kTileN];
    const int t = threadIdx.x;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;
    // A: this thread loads column aK of the k step for rows aRow0 + 8 i (row state made once).
    const int aK = t % kTileK, aRow0 = t / kTileK;
    typename Op::RowA rows[kARowsPerThread];
    bool rowIn[kARowsPerThread];
    for (int i = 0; i < kARowsPerThread; ++i) {
        const int m = m0 + aRow0 + i * (kGemmThreads / kTileK);
        rowIn[i] = m < M;
        if (rowIn[i]) rows[i] = op.aRow(m);
    }
    // B: column bN for the k rows bK0 + 4 i.
    const int bN = t % kTileN, bK0 = t / kTileN;
    const bool colIn = n0 + bN < N;
    const typename Op::ColB col = op.bCol(colIn ? n0 + bN : n0);
    auto load = [&](int buf, int kb) {
        const int k = kb + aK;
        if (k < kEnd) {
            const typename Op::KA ka = op.aK(k);
            for (int i = 0; i < kARowsPerThread; ++i)
                As[buf][aK][aRow0 + i * (kGemmThreads / kTileK)] = rowIn[i] ? op.a(rows[i], ka) : 0.0f;
        } else {
            for (int i = 0; i < kARowsPerThread; ++i) As[buf][aK][aRow0 + i * (kGemmThreads / kTileK)] = 0.0f;
        }
        for (int i = 0; i < kBKsPerThread; ++i) {
            const int kk = bK0 + i * (kGemmThreads / kTileN), kg = kb + kk;
            Bs[buf][kk][bN] = colIn && kg < kEnd ? op.b(col, op.bK(kg)) : 0.0f;
        }
    };
    const int tm = tileRow(t), tn = tileCol(t);
    if (kBegin < kEnd) load(0, kBegin);
    __syncthreads();
    int buf = 0;
    for (int kb = kBegin; kb < kEnd; kb += kTileK, buf ^= 1) {
        if (kb + kTileK < kEnd) load(buf ^ 1, kb + kTileK);
        const int kn = kEnd - kb < kTileK ? kEnd - kb : kTileK;
        for (int kk = 0; kk < kn; ++kk) {
            float av[4], bv[4];
            for (int i = 0; i < 4; ++i) av[i] = As[buf][kk][tm + i];
            for (int j = 0; j < 4; ++j) bv[j] = Bs[buf][kk][tn + j];
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
}

// Split-K: block `split` of the tile's `splits` stores its sums in partials ([tile][split]
// [thread][16]); the last of them to finish (a ticket per tile, left at zero) adds the splits
// in order into acc and returns true. With one split: true at once, acc unchanged.
__device__ inline bool reduceSplits(float acc[4][4], int tile, int split, int splits, float* partials,
                                    unsigned int* tickets) {
    if (splits == 1) return true;
    constexpr int kTileFloats = kTileM * kTileN;
    float* base = partials + (long long)tile * splits * kTileFloats + threadIdx.x * 16;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) base[(long long)split * kTileFloats + i * 4 + j] = acc[i][j];
    __threadfence();
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0) last = atomicAdd(&tickets[tile], 1u) == unsigned(splits - 1);
    __syncthreads();
    if (!last) return false;
    __threadfence();
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            float s = 0.0f;
            for (int sp = 0; sp < splits; ++sp) s += __ldcg(&base[(long long)sp * kTileFloats + i * 4 + j]);
            acc[i][j] = s;
        }
    if (threadIdx.x == 0) tickets[tile] = 0u;  // ready for the next launch
    return true;
}

}  // namespace td::cuda
