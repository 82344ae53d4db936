// The fused path's own first convolution: conv2d_1 is small (3 input channels, 32 filters)
// and the one layer whose input is the assembled batch, so one kernel assembles each output
// pixel's 3x3 neighbourhood on the fly (assemble_pixel.cuh: the values assembleBatch
// writes), convolves it with all 32 filters and adds bias + ReLU; the backward pass masks
// the gradient by the ReLU and sums the bias and kernel gradients in one kernel.
#include "cuda/assemble_pixel.cuh"
#include "cuda/channel_sums.cuh"
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"
#include "cuda/runtime_check.h"

namespace td::cuda {

namespace {

constexpr int kOut = kFirstLayerOut, kMaxIn = kFirstLayerMaxIn;
static_assert(kOut % 4 == 0, "float4 stores of the outputs");

// Index of tap (ky, kx, ci) of filter o in the device layout.
__device__ inline int filterIndex(bool nhwc, int C, int o, int ky, int kx, int ci) {
    return nhwc ? ((o * 3 + ky) * 3 + kx) * C + ci : ((o * C + ci) * 3 + ky) * 3 + kx;
}

// One thread per output pixel (n, h, w): all kOut filters. C: the input channels, a
// template parameter so that the loops unroll and the patch stays in registers.
template <int C>
__global__ void firstLayerFwdKernel(FirstLayerArgs a, Tensor4 yt) {
    constexpr int taps = 9 * C;
    __shared__ float wsh[kOut * taps];  // [o][tap], tap = (ky * 3 + kx) * C + ci
    const AssembleArgs& b = a.batch;
    const bool nhwc = yt.nhwc;
    for (int e = threadIdx.x; e < kOut * taps; e += blockDim.x) {
        const int o = e / taps, t = e % taps;
        wsh[e] = a.w[filterIndex(nhwc, C, o, t / (3 * C), (t / C) % 3, t % C)];
    }
    __syncthreads();
    const long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long long)b.batch * b.h * b.w) return;
    const int i = int(idx / ((long long)b.h * b.w));
    const int r = int((idx / b.w) % b.h);
    const int q = int(idx % b.w);
    const SampleShift s = sampleShift(b, i);
    if (r == 0 && q == 0) b.outLabels[i] = s.image < 0 ? 0 : b.labels[s.image];
    float patch[taps];
    for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx) {
            const int y = r + ky - 1, x = q + kx - 1;
            const bool inside = y >= 0 && y < b.h && x >= 0 && x < b.w;
            for (int ci = 0; ci < C; ++ci) {
                const float v = inside ? assembledPixel(b, s, y, x, ci) : 0.0f;
                patch[(ky * 3 + kx) * C + ci] = v;
                if (ky == 1 && kx == 1) b.out[offsetOf(b.shape, i, ci, r, q)] = v;  // the batch itself
            }
        }
    // Four filters at a time: in NHWC their outputs are adjacent, one 16-byte store.
    for (int o = 0; o < kOut; o += 4) {
        float v[4];
        for (int m = 0; m < 4; ++m) {
            float acc = 0.0f;
            for (int t = 0; t < taps; ++t) acc += patch[t] * wsh[(o + m) * taps + t];
            v[m] = fmaxf(acc + a.bias[o + m], 0.0f);
        }
        if (nhwc) {
            float4 q4;
            q4.x = v[0], q4.y = v[1], q4.z = v[2], q4.w = v[3];
            *reinterpret_cast<float4*>(a.y + offsetOf(yt, i, o, r, q)) = q4;  // 32 floats per pixel: aligned
        } else {
            for (int m = 0; m < 4; ++m) a.y[offsetOf(yt, i, o + m, r, q)] = v[m];
        }
    }
}

// channelSums' partition (rows of (n, h, w), channel o = filter), with 1 + taps sums per
// thread: the masked gradient (the bias gradient) and its products with each tap of the
// input. partials: [chunk][quantity][o].
template <int C>
__global__ void firstLayerBwdKernel(const float* g, const float* y, Tensor4 yt, const float* x, Tensor4 xt, float* dw,
                                    float* db, float* partials, unsigned int* ticket) {
    const int o = threadIdx.x;  // kOut == 32: one channel tile
    constexpr int taps = 9 * C, quantities = 1 + taps;
    const long long rows = (long long)yt.n * yt.h * yt.w;
    float acc[quantities];
    for (int k = 0; k < quantities; ++k) acc[k] = 0.0f;
    for (long long r = (long long)blockIdx.x * kSumRowLanes + threadIdx.y; r < rows;
         r += (long long)gridDim.x * kSumRowLanes) {
        const int n = int(r / ((long long)yt.h * yt.w));
        const int h = int((r / yt.w) % yt.h);
        const int w = int(r % yt.w);
        const long long off = offsetOf(yt, n, o, h, w);
        const float v = y[off] > 0.0f ? g[off] : 0.0f;  // maskBiasGradKernel's mask (scale 1)
        acc[0] += v;
        for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
                const int yy = h + ky - 1, xx = w + kx - 1;
                if (yy < 0 || yy >= xt.h || xx < 0 || xx >= xt.w) continue;
                for (int ci = 0; ci < C; ++ci) acc[1 + (ky * 3 + kx) * C + ci] += v * x[offsetOf(xt, n, ci, yy, xx)];
            }
    }
    // The lanes' sums, added per quantity and filter in lane order (channelSums' order), the
    // quantities spread over the lanes: one barrier, not one per quantity.
    __shared__ float part[kSumRowLanes][quantities][33];
    for (int k = 0; k < quantities; ++k) part[threadIdx.y][k][threadIdx.x] = acc[k];
    __syncthreads();
    for (int k = threadIdx.y; k < quantities; k += kSumRowLanes) {
        float s = 0.0f;
        for (int l = 0; l < kSumRowLanes; ++l) s += part[l][k][threadIdx.x];
        partials[((long long)blockIdx.x * quantities + k) * kOut + o] = s;
    }
    __threadfence();
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0 && threadIdx.y == 0) last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!last) return;
    for (int e = threadIdx.y * kOut + threadIdx.x; e < quantities * kOut; e += kOut * kSumRowLanes) {
        const int k = e / kOut, oo = e % kOut;
        float s = 0.0f;
        for (unsigned int bx = 0; bx < gridDim.x; ++bx) s += __ldcg(&partials[((long long)bx * quantities + k) * kOut + oo]);
        if (k == 0) {
            db[oo] = s;
        } else {
            const int t = k - 1;
            dw[filterIndex(xt.nhwc, C, oo, t / (3 * C), (t / C) % 3, t % C)] = s;
        }
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) *ticket = 0u;
}

}  // namespace

void firstLayerForward(const FirstLayerArgs& a, cudaStream_t s) {
    const AssembleArgs& b = a.batch;
    TD_CHECK(b.c >= 1 && b.c <= kMaxIn, "first layer: ", b.c, " input channels (at most ", kMaxIn, ")");
    TD_CHECK(b.shape.c == b.c && b.shape.h == b.h && b.shape.w == b.w && b.shape.n == b.batch,
             "first layer: batch shape mismatch");
    const Tensor4 yt = Tensor4::make(b.batch, kOut, b.h, b.w, b.shape.nhwc);
    const unsigned int blocks = blocksFor((long long)b.batch * b.h * b.w, 128);
    switch (b.c) {
        case 1: TD_LAUNCH(firstLayerFwdKernel<1>, blocks, 128, s, a, yt); break;
        case 2: TD_LAUNCH(firstLayerFwdKernel<2>, blocks, 128, s, a, yt); break;
        case 3: TD_LAUNCH(firstLayerFwdKernel<3>, blocks, 128, s, a, yt); break;
        default: TD_LAUNCH(firstLayerFwdKernel<4>, blocks, 128, s, a, yt); break;
    }
    CUDA_CHECK_LAUNCH();
}

size_t firstLayerPartialsFloats(const Tensor4& yt, int inC) {
    return size_t(channelSumsGrid(yt).x) * size_t(1 + 9 * inC) * size_t(kOut);
}

void firstLayerBackward(const float* g, const float* y, const Tensor4& yt, const float* x, const Tensor4& xt, float* dw,
                        float* db, float* partials, unsigned int* ticket, cudaStream_t s) {
    TD_CHECK(yt.c == kOut && xt.c >= 1 && xt.c <= kMaxIn && xt.h == yt.h && xt.w == yt.w && xt.n == yt.n,
             "first layer backward: shapes do not match");
    const dim3 grid = channelSumsGrid(yt), block(kOut, kSumRowLanes);  // one channel tile: kOut == 32
    switch (xt.c) {
        case 1: TD_LAUNCH(firstLayerBwdKernel<1>, grid, block, s, g, y, yt, x, xt, dw, db, partials, ticket); break;
        case 2: TD_LAUNCH(firstLayerBwdKernel<2>, grid, block, s, g, y, yt, x, xt, dw, db, partials, ticket); break;
        case 3: TD_LAUNCH(firstLayerBwdKernel<3>, grid, block, s, g, y, yt, x, xt, dw, db, partials, ticket); break;
        default: TD_LAUNCH(firstLayerBwdKernel<4>, grid, block, s, g, y, yt, x, xt, dw, db, partials, ticket); break;
    }
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
