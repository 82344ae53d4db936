// The fused path's backward pass of conv2d_2..4 and dense_1: one kernel per layer whose
// blocks are of two kinds (both implicit GEMMs, gemm_tile.cuh), run side by side:
//  - data-gradient blocks: gx = gy * w^T, their epilogue taking the gradient on through the
//    previous layer's ReLU or max pooling + dropout (what maskBiasGrad / maxPoolBackward did);
//  - weight-gradient blocks: dw = x^T gy with the bias gradient as one more row of ones,
//    the sum over the pixels split into ranges that the last block of a tile adds in order.
// What cuDNN's backward-data and backward-filter, and the small kernels between them, did
// in five launches.
#include "cuda/gemm_operands.cuh"
#include "cuda/gemm_tile.cuh"
#include "cuda/kernels.h"
#include "cuda/pool_window.cuh"
#include "cuda/runtime_check.h"

namespace td::cuda {

namespace {

// A: (input pixels, taps of gy) with the taps mirrored; B: (taps of gy, input channels) of
// the weights.
struct DataOp {
    GemmLayer L;
    const float* gy;
    const float* w;
    struct KB {
        int co, kh, kw;
    };
    using RowA = Pixel;
    using KA = Tap;
    using ColB = int;
    __device__ Pixel aRow(int m) const { return pixelOf(L.x, m); }
    __device__ Tap aK(int k) const { return tapOf(L.y, kernelSize(L), L.pad, -1, k); }
    __device__ float a(const Pixel& p, const Tap& t) const { return patchValue(gy, L.y, p, t); }
    __device__ int bCol(int n) const { return n; }
    __device__ KB bK(int k) const {
        const int ks = kernelSize(L), C = L.y.c;
        const int co = L.x.nhwc || L.dense ? k % C : k / (ks * ks), khw = L.x.nhwc || L.dense ? k / C : k % (ks * ks);
        return {co, khw / ks, khw % ks};
    }
    __device__ float b(int ci, const KB& k) const { return w[weightIndex(L, k.co, ci, k.kh, k.kw)]; }
};

// A: (taps of x, plus a row of ones for the bias, output pixels); B: (output pixels, output
// channels) of gy.
struct WeightOp {
    GemmLayer L;
    const float* x;
    const float* gy;
    using RowA = Tap;
    using KA = Pixel;
    using ColB = int;
    using KB = Pixel;
    __device__ Tap aRow(int r) const {
        if (r == L.taps()) return {0, 0, 0, true};
        return tapOf(L.x, kernelSize(L), L.pad, 1, r);
    }
    __device__ Pixel aK(int k) const { return pixelOf(L.y, k); }
    __device__ float a(const Tap& t, const Pixel& p) const { return t.ones ? 1.0f : patchValue(x, L.x, p, t); }
    __device__ int bCol(int n) const { return n; }
    __device__ Pixel bK(int k) const { return pixelOf(L.y, k); }
    __device__ float b(int co, const Pixel& p) const {
        return gy[p.n * L.y.sn + co * L.y.sc + p.h * L.y.sh + p.w * L.y.sw];
    }
};

struct BackwardGrid {
    int dataTilesM = 0, dataTilesN = 0;  // zero without gx
    int weightRows = 0, weightTilesM = 0, weightTilesN = 0, splits = 1;
    TD_CUDA_HD int dataBlocks() const { return dataTilesM * dataTilesN; }
    TD_CUDA_HD int weightTiles() const { return weightTilesM * weightTilesN; }
    TD_CUDA_HD int blocks() const { return dataBlocks() + weightTiles() * splits; }
};

inline BackwardGrid backwardGrid(const GemmLayer& L, bool bias, bool data) {
    BackwardGrid g;
    if (data) {
        g.dataTilesM = (L.x.n * L.x.h * L.x.w + kTileM - 1) / kTileM;
        g.dataTilesN = (L.x.c + kTileN - 1) / kTileN;
    }
    g.weightRows = L.taps() + (bias ? 1 : 0);
    g.weightTilesM = (g.weightRows + kTileM - 1) / kTileM;
    g.weightTilesN = (L.y.c + kTileN - 1) / kTileN;
    g.splits = gemmSplits((long long)L.y.n * L.y.h * L.y.w);
    return g;
}

__device__ void dataGradBlock(const LayerBackwardArgs& a, const BackwardGrid& g, const Tensor4& pt, int block) {
    const GemmLayer& L = a.layer;
    const DataOp op{L, a.gy, a.w};
    const int M = L.x.n * L.x.h * L.x.w, N = L.x.c, K = L.dense ? L.y.c : 9 * L.y.c;
    const int m0 = (block % g.dataTilesM) * kTileM, n0 = (block / g.dataTilesM) * kTileN;
    float acc[4][4];
    gemmTile(op, M, N, m0, n0, 0, K, acc);
    const int r0 = m0 + tileRow(threadIdx.x), c0 = n0 + tileCol(threadIdx.x);
    for (int i = 0; i < 4; ++i) {
        if (r0 + i >= M) break;
        const Pixel p = pixelOf(L.x, r0 + i);
        for (int j = 0; j < 4; ++j) {
            const int c = c0 + j;
            if (c >= N) break;
            const long long off = offsetOf(L.x, p.n, c, p.h, p.w);
            const float s = acc[i][j];
            if (a.through == GradInput::kPool) {
                // The element of the pooled tensor: a dense layer's input index is the
                // pooled tensor's offset within the sample.
                int n = p.n, pc = c, ho = p.h, wo = p.w;
                if (L.dense) decode(pt, (long long)p.n * pt.sn + c, n, pc, ho, wo);
                routeWindowGrad(a.pre, a.preT, pt, n, pc, ho, wo, a.x[off], s, a.dropScale, a.gx);
            } else {
                a.gx[off] = a.through == GradInput::kRelu ? (a.x[off] > 0.0f ? s : 0.0f) : s;
            }
        }
    }
}

__device__ void weightGradBlock(const LayerBackwardArgs& a, const BackwardGrid& g, int block) {
    const GemmLayer& L = a.layer;
    const WeightOp op{L, a.x, a.gy};
    const int tiles = g.weightTiles(), tile = block % tiles, split = block / tiles;
    const int K = L.y.n * L.y.h * L.y.w;
    const int kBegin = split * kGemmSplitLength;
    const int kEnd = g.splits == 1 || kBegin + kGemmSplitLength > K ? K : kBegin + kGemmSplitLength;
    const int m0 = (tile % g.weightTilesM) * kTileM, n0 = (tile / g.weightTilesM) * kTileN;
    float acc[4][4];
    gemmTile(op, g.weightRows, L.y.c, m0, n0, kBegin, kEnd, acc);
    if (!reduceSplits(acc, tile, split, g.splits, a.partials, a.tickets)) return;
    const int r0 = m0 + tileRow(threadIdx.x), c0 = n0 + tileCol(threadIdx.x), R = L.taps();
    for (int i = 0; i < 4; ++i) {
        const int r = r0 + i;
        if (r >= g.weightRows) break;
        for (int j = 0; j < 4; ++j) {
            const int co = c0 + j;
            if (co >= L.y.c) break;
            if (r == R) {
                a.db[co] = acc[i][j];
            } else {
                a.dw[weightIndex(L, co, r)] = acc[i][j];
            }
        }
    }
}

// pt: the pooled shape of preT (kPool).
__global__ void layerBackwardKernel(LayerBackwardArgs a, BackwardGrid g, Tensor4 pt) {
    const int block = int(blockIdx.x);
    if (block < g.dataBlocks()) {
        dataGradBlock(a, g, pt, block);
    } else {
        weightGradBlock(a, g, block - g.dataBlocks());
    }
}

}  // namespace

GemmScratchSize layerBackwardScratch(const GemmLayer& L, bool bias) {
    const BackwardGrid g = backwardGrid(L, bias, false);
    GemmScratchSize s;
    s.tickets = size_t(g.weightTiles());
    if (g.splits > 1) s.partials = s.tickets * size_t(g.splits) * size_t(kTileM * kTileN);
    return s;
}

void layerBackward(const LayerBackwardArgs& a, cudaStream_t s) {
    const GemmLayer& L = a.layer;
    TD_CHECK(a.x && a.w && a.gy && a.dw, "layerBackward: missing an operand");
    TD_CHECK(a.through != GradInput::kPool ||
                 (a.pre && a.preT.n == L.x.n && (long long)a.preT.c * (a.preT.h / 2) * (a.preT.w / 2) ==
                                                    (long long)L.x.c * L.x.h * L.x.w),
             "layerBackward: the pooled input does not match the pooling");
    const BackwardGrid g = backwardGrid(L, a.db != nullptr, a.gx != nullptr);
    TD_CHECK(g.splits == 1 || (a.partials && a.tickets), "layerBackward: a split reduction needs its scratch");
    const Tensor4 pt = Tensor4::make(a.preT.n, a.preT.c, a.preT.h / 2, a.preT.w / 2, a.preT.nhwc);
    TD_LAUNCH(layerBackwardKernel, unsigned(g.blocks()), kGemmThreads, s, a, g, pt);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
