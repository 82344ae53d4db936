// The fused path's forward pass of conv2d_2..4 and dense_1: one implicit-GEMM kernel per
// layer (gemm_tile.cuh) whose epilogue adds the bias, applies the ReLU and, after conv2d_2
// and conv2d_4, the 2x2 max pooling with dropout: what cuDNN's convolution followed by
// biasReluMaxPool (or biasActivation) does, in one launch and one trip through memory.
#include "cuda/bias_add.cuh"
#include "cuda/gemm_operands.cuh"
#include "cuda/gemm_tile.cuh"
#include "cuda/kernels.h"
#include "cuda/pool_window.cuh"
#include "cuda/runtime_check.h"

namespace td::cuda {

namespace {

// A: (output pixels, taps) of the input; B: (taps, output channels) of the weights. With
// pooling the output pixels are in the pooled order (gemm_operands.cuh).
struct ForwardOp {
    GemmLayer L;
    const float* x;
    const float* w;
    bool pooled;
    using RowA = Pixel;
    using KA = Tap;
    using ColB = int;
    using KB = int;
    __device__ Pixel aRow(int m) const { return pooled ? pooledPixelOf(L.y, m) : pixelOf(L.y, m); }
    __device__ Tap aK(int k) const { return tapOf(L.x, kernelSize(L), L.pad, 1, k); }
    __device__ float a(const Pixel& p, const Tap& t) const { return patchValue(x, L.x, p, t); }
    __device__ int bCol(int n) const { return n; }
    __device__ int bK(int k) const { return k; }
    __device__ float b(int co, int k) const { return w[weightIndex(L, co, k)]; }
};

__device__ inline int forwardRows(const GemmLayer& L, bool pooled) {
    return pooled ? L.y.n * ((L.y.h + 1) / 2) * ((L.y.w + 1) / 2) * 4 : L.y.n * L.y.h * L.y.w;
}

// Grid: (tiles over rows, tiles over channels, splits of the reduction).
__global__ void layerForwardKernel(LayerForwardArgs a) {
    const bool pooled = a.p != nullptr;
    const ForwardOp op{a.layer, a.x, a.w, pooled};
    const int M = forwardRows(a.layer, pooled), N = a.layer.y.c, K = a.layer.taps();
    const int splits = int(gridDim.z), split = int(blockIdx.z);
    const int kBegin = split * kGemmSplitLength;
    const int kEnd = splits == 1 || kBegin + kGemmSplitLength > K ? K : kBegin + kGemmSplitLength;
    const int m0 = int(blockIdx.x) * kTileM, n0 = int(blockIdx.y) * kTileN;
    float acc[4][4];
    gemmTile(op, M, N, m0, n0, kBegin, kEnd, acc);
    if (!reduceSplits(acc, int(blockIdx.y * gridDim.x + blockIdx.x), split, splits, a.partials, a.tickets)) return;

    const Tensor4& yt = a.layer.y;
    const int r0 = m0 + tileRow(threadIdx.x), c0 = n0 + tileCol(threadIdx.x);
    if (r0 >= M) return;
    Pixel px[4];
    for (int i = 0; i < 4; ++i) px[i] = r0 + i < M ? op.aRow(r0 + i) : Pixel{0, 0, 0, false};
    for (int j = 0; j < 4; ++j) {
        const int c = c0 + j;
        if (c >= N) break;
        float v[4];
        for (int i = 0; i < 4; ++i) {
            v[i] = 0.0f;  // past an odd edge: as biasReluPoolKernel
            if (!px[i].valid) continue;
            float s = acc[i][j];
            if (a.bias) s = fmaxf(biasAdd(s, a.bias, c), 0.0f);  // biasActKernel's operations
            a.y[offsetOf(yt, px[i].n, c, px[i].h, px[i].w)] = s;
            v[i] = s;
        }
        // The 4 rows are one window (pooled order, rows aligned to 4).
        const int ho = px[0].h / 2, wo = px[0].w / 2;
        if (pooled && ho < a.pt.h && wo < a.pt.w) storePooled(v, a.p, a.pt, a.drop, px[0].n, c, ho, wo);
    }
}

dim3 forwardGrid(const GemmLayer& L, bool pooled) {
    const long long rows = pooled ? (long long)L.y.n * ((L.y.h + 1) / 2) * ((L.y.w + 1) / 2) * 4
                                  : (long long)L.y.n * L.y.h * L.y.w;
    const int splits = L.dense ? gemmSplits(L.taps()) : 1;
    return dim3(unsigned((rows + kTileM - 1) / kTileM), unsigned((L.y.c + kTileN - 1) / kTileN), unsigned(splits));
}

}  // namespace

GemmScratchSize layerForwardScratch(const GemmLayer& L) {
    const dim3 g = forwardGrid(L, false);
    GemmScratchSize s;
    s.tickets = size_t(g.x) * g.y;
    if (g.z > 1) s.partials = s.tickets * g.z * size_t(kTileM * kTileN);
    return s;
}

void layerForward(const LayerForwardArgs& a, cudaStream_t s) {
    const GemmLayer& L = a.layer;
    const bool pooled = a.p != nullptr;
    TD_CHECK(!pooled || (!L.dense && a.bias && a.pt.n == L.y.n && a.pt.c == L.y.c && a.pt.h == L.y.h / 2 &&
                         a.pt.w == L.y.w / 2 && a.pt.nhwc == L.y.nhwc),
             "layerForward: the pooled shape does not match");
    const dim3 grid = forwardGrid(L, pooled);
    TD_CHECK(grid.z == 1 || (a.partials && a.tickets), "layerForward: a split reduction needs its scratch");
    TD_CHECK((long long)grid.x * kTileM < (1ll << 31), "layerForward: too many output pixels");
    TD_LAUNCH(layerForwardKernel, grid, kGemmThreads, s, a);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
