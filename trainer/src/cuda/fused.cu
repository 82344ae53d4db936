// The kernels of the --gpu-kernels fused path: each does in one launch, and with fewer
// trips through memory, what a run of the library path's kernels does (kernels.h says which,
// and where the result is bit for bit the same). Shared device code (channel_sums.cuh,
// pool_window.cuh, softmax_row.cuh) keeps the float operations and their order identical.
#include "cuda/bias_add.cuh"
#include "cuda/channel_sums.cuh"
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"
#include "cuda/pool_window.cuh"
#include "cuda/runtime_check.h"
#include "cuda/softmax_row.cuh"

namespace td::cuda {

namespace {

// One thread per 2x2 cell of y (cells: y's shape with H and W halved, rounded up, so the
// odd last row/column that the pooling drops still gets its bias and ReLU).
__global__ void biasReluPoolKernel(float* y, Tensor4 yt, const float* bias, float* p, Tensor4 pt, Tensor4 cells,
                                   DropoutArgs drop) {
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= cells.size()) return;
    int n, c, ho, wo;
    decode(cells, idx, n, c, ho, wo);
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k < 4; ++k) {
        const int h = 2 * ho + (k >> 1), w = 2 * wo + (k & 1);
        if (h >= yt.h || w >= yt.w) continue;
        const long long off = offsetOf(yt, n, c, h, w);
        v[k] = fmaxf(biasAdd(y[off], bias, c), 0.0f);  // biasActKernel's operations
        y[off] = v[k];
    }
    if (ho >= pt.h || wo >= pt.w) return;  // an odd edge: no pooled output
    storePooled(v, p, pt, drop, n, c, ho, wo);
}

// poolBwdKernel's value for each element of x, summed per channel as maskBiasGradKernel does.
__global__ void poolBwdBiasKernel(const float* x, Tensor4 xt, const float* y, const float* gy, Tensor4 yt, float* gx,
                                  float dropScale, float* db, float* partials, unsigned int* ticket) {
    channelSums(xt, db, partials, ticket, [&](long long off, int n, int c, int hi, int wi) {
        const int ho = hi >> 1, wo = wi >> 1;
        float g = 0.0f;
        if (ho < yt.h && wo < yt.w && x[off] > 0.0f) {
            float m;
            const int best = windowArgmax(x, xt, n, c, ho, wo, &m);
            if (best == ((hi & 1) << 1 | (wi & 1))) {
                const long long o = offsetOf(yt, n, c, ho, wo);
                if (y[o] != 0.0f) g = gy[o] * dropScale;  // zero where dropout dropped it
            }
        }
        gx[off] = g;
        return g;
    });
}

// Block i: sample i. chunks: the row chunks maskBiasGrad would use for dense_1's bias
// gradient (its summation order, reproduced by channelSumSerial).
__global__ void denseHeadKernel(HeadArgs a, unsigned int chunks) {
    __shared__ float act[kHeadMaxUnits];
    __shared__ float part[kHeadThreads];
    __shared__ float z[kHeadThreads];
    __shared__ float g[kHeadThreads];
    const int i = blockIdx.x, U = a.units, K = a.classes, tid = threadIdx.x;
    const bool train = a.gLogits != nullptr;
    float* row = a.fc1 + (long long)i * U;

    // dense_1: bias + ReLU + dropout, as biasActKernel on the (batch, units) matrix.
    const uint32_t key = a.drop.rate > 0.0f ? dropoutSampleKey(a.drop, i) : 0u;
    for (int j = tid; j < U; j += blockDim.x) {
        float v = fmaxf(row[j] + a.b1[j], 0.0f);
        if (a.drop.rate > 0.0f) v *= dropoutFactor(a.drop, key, uint32_t(j));
        row[j] = v;
        act[j] = v;
    }
    __syncthreads();

    // dense_2: logit k = sum over j of act[j] w2[j][k]; `groups` threads per logit each take
    // every groups-th j, then their partial sums are added in group order.
    const int groups = int(blockDim.x) / K;
    if (tid < groups * K) {
        const int k = tid % K, gi = tid / K;
        float s = 0.0f;
        for (int j = gi; j < U; j += groups) s += act[j] * a.w2[(long long)j * K + k];
        part[tid] = s;
    }
    __syncthreads();
    if (tid < K) {
        float s = 0.0f;
        for (int gi = 0; gi < groups; ++gi) s += part[gi * K + tid];
        z[tid] = s;
    }
    __syncthreads();

    // Softmax + cross-entropy of the row (softmaxLossKernel's code).
    if (tid == 0) {
        const float invN = 1.0f / float(a.valid > 0 ? a.valid : 1);
        double loss = 0.0, hit = 0.0;
        softmaxCrossEntropyRow(z, a.b2, K, a.labels[i], i < a.valid, invN,
                               a.probs ? a.probs + (long long)i * K : nullptr, train ? g : nullptr, &loss, &hit);
        a.rows[2 * i] = loss;
        a.rows[2 * i + 1] = hit;
    }
    __syncthreads();
    if (train) {
        for (int k = tid; k < K; k += blockDim.x) a.gLogits[(long long)i * K + k] = g[k];
        // Into dense_1: sum over k of g[k] w2[j][k], through dropout and ReLU (maskBiasGrad's mask).
        for (int j = tid; j < U; j += blockDim.x) {
            float s = 0.0f;
            for (int k = 0; k < K; ++k) s += g[k] * a.w2[(long long)j * K + k];
            a.gFc1[(long long)i * U + j] = act[j] > 0.0f ? s * a.drop.scale : 0.0f;
        }
    }

    // The last block to finish adds up over the samples.
    __threadfence();
    __syncthreads();
    __shared__ bool last;
    if (tid == 0) last = atomicAdd(a.ticket, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last) return;
    __threadfence();
    {
        // softmaxLossKernel's order: its thread t adds the rows t, t + kLossThreads, ...; then
        // thread 0 adds the threads' sums (each thread here takes the rows of the same t).
        __shared__ double lossPart[kLossThreads];
        __shared__ double hitPart[kLossThreads];
        for (int t = tid; t < kLossThreads; t += blockDim.x) {
            double pl = 0.0, pc = 0.0;
            for (int r = t; r < a.batch; r += kLossThreads) pl += __ldcg(&a.rows[2 * r]), pc += __ldcg(&a.rows[2 * r + 1]);
            lossPart[t] = pl, hitPart[t] = pc;
        }
        __syncthreads();
        if (tid == 0) storeLossTotals(lossPart, hitPart, kLossThreads, a.valid, a.extras, a.accum);
    }
    if (train) {
        for (int k = tid; k < K; k += blockDim.x) {  // softmaxLossKernel's bias gradient
            float s = 0.0f;
            for (int r = 0; r < a.batch; ++r) s += __ldcg(&a.gLogits[(long long)r * K + k]);
            a.db2[k] = s;
        }
        // dW2 = fc1^T gLogits, each element summed over the samples in order; a thread takes
        // kHeadPass elements at a time, so that their loads are in flight together.
        constexpr int kHeadPass = 8;
        for (int e0 = tid; e0 < U * K; e0 += kHeadPass * blockDim.x) {
            float s[kHeadPass];
            for (int m = 0; m < kHeadPass; ++m) s[m] = 0.0f;
            for (int r = 0; r < a.batch; ++r)
                for (int m = 0; m < kHeadPass; ++m) {
                    const int e = e0 + m * int(blockDim.x);
                    if (e < U * K)
                        s[m] += __ldcg(&a.fc1[(long long)r * U + e / K]) * __ldcg(&a.gLogits[(long long)r * K + e % K]);
                }
            for (int m = 0; m < kHeadPass; ++m) {
                const int e = e0 + m * int(blockDim.x);
                if (e < U * K) a.dW2[e] = s[m];
            }
        }
        for (int j = tid; j < U; j += blockDim.x) a.db1[j] = channelSumSerial(a.gFc1, a.batch, U, j, chunks);
    }
    if (tid == 0) *a.ticket = 0u;  // ready for the next launch
}

}  // namespace

void biasReluMaxPool(float* y, const Tensor4& yt, const float* bias, float* p, const Tensor4& pt,
                     const DropoutArgs& drop, cudaStream_t s) {
    TD_CHECK(pt.h == yt.h / 2 && pt.w == yt.w / 2 && pt.c == yt.c && pt.n == yt.n && pt.nhwc == yt.nhwc,
             "biasReluMaxPool: pooled shape does not match");
    const Tensor4 cells = Tensor4::make(yt.n, yt.c, (yt.h + 1) / 2, (yt.w + 1) / 2, yt.nhwc);
    TD_LAUNCH(biasReluPoolKernel, blocksFor(cells.size(), 256), 256, s, y, yt, bias, p, pt, cells, drop);
    CUDA_CHECK_LAUNCH();
}

void maxPoolBackwardBiasGrad(const float* x, const Tensor4& xt, const float* y, const float* gy, const Tensor4& yt,
                             float* gx, float dropScale, float* db, const ReduceScratch& scratch, cudaStream_t s) {
    TD_LAUNCH(poolBwdBiasKernel, channelSumsGrid(xt), dim3(32, kSumRowLanes), s, x, xt, y, gy, yt, gx, dropScale, db,
              scratch.partials, scratch.ticket);
    CUDA_CHECK_LAUNCH();
}

void denseHead(const HeadArgs& a, cudaStream_t s) {
    TD_CHECK(a.units >= 1 && a.units <= kHeadMaxUnits, "denseHead: ", a.units, " units (at most ", kHeadMaxUnits, ")");
    TD_CHECK(a.classes >= 1 && a.classes <= kHeadThreads, "denseHead: ", a.classes, " classes (at most ",
             kHeadThreads, ")");
    TD_CHECK(a.rows && a.ticket, "denseHead: no scratch");
    const bool train = a.gLogits != nullptr;
    TD_CHECK(train == (a.dW2 && a.db2 && a.gFc1 && a.db1) && (a.dW2 || a.db2 || a.gFc1 || a.db1) == train,
             "denseHead: the training outputs come all together or not at all");
    const unsigned int chunks = channelSumsGrid(Tensor4::matrix(a.batch, a.units)).x;
    TD_LAUNCH(denseHeadKernel, unsigned(a.batch), kHeadThreads, s, a, chunks);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
