#pragma once
// The hand-written CUDA kernels of the GPU backend, one .cu file per concern:
//   augment.cu  batch assembly from the resident data set: uint8 -> float, shifts, flips
//   bias_act.cu fused bias + ReLU (+ dropout) forward; masked ReLU backward + bias gradient
//   pool.cu     2x2 max pooling with dropout, forward and backward
//   loss.cu     softmax + categorical cross-entropy (+ dense_2 bias and its gradient)
//   rmsprop.cu  the RMSprop update over the flat parameter buffer, and the step counters
//   fused.cu    the --gpu-kernels fused path: fewer, bigger kernels that each do what a run
//               of the kernels above does (bit for bit where the arithmetic is the same)
//   first_layer.cu  the fused path's own conv2d_1, batch assembly and bias + ReLU folded in,
//               and its backward (bias and kernel gradients)
//   layer_forward.cu / layer_backward.cu  the fused path's own conv2d_2..4 and dense_1 as
//               implicit GEMMs (gemm_tile.cuh) with their epilogues: bias + ReLU (+ max
//               pooling + dropout) forward; backward one kernel per layer for the data
//               gradient (through the previous ReLU or max pooling) and the weight + bias
//               gradients
// Launchers are plain C++ so .cpp files (and the tests) can call them; every launch goes
// through TD_LAUNCH (cuda/kernel_runtime.h), so the same files also build as host code
// that runs the kernels on the CPU (cuda/host_emulation.h, for the tests). All launches are
// asynchronous on the given stream and may be captured in a CUDA graph: no allocation,
// no host synchronisation, and per-step values come from StepCounters on the device.
#include "cuda/kernel_runtime.h"

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define TD_CUDA_HD __host__ __device__
#else
#define TD_CUDA_HD
#endif

namespace td::cuda {

// A 4-D activation (N, C, H, W) stored NHWC or NCHW (dense layers: H = W = 1).
struct Tensor4 {
    int n = 0, c = 0, h = 0, w = 0;
    bool nhwc = true;
    long long sn = 0, sc = 0, sh = 0, sw = 0;  // element strides

    static Tensor4 make(int n, int c, int h, int w, bool nhwc) {
        Tensor4 t;
        t.n = n, t.c = c, t.h = h, t.w = w, t.nhwc = nhwc;
        if (nhwc) {
            t.sc = 1, t.sw = c, t.sh = (long long)w * c, t.sn = (long long)h * w * c;
        } else {
            t.sw = 1, t.sh = w, t.sc = (long long)h * w, t.sn = (long long)c * h * w;
        }
        return t;
    }
    static Tensor4 matrix(int rows, int cols) { return make(rows, cols, 1, 1, true); }
    TD_CUDA_HD long long size() const { return (long long)n * c * h * w; }
};

// Per-step state on the device. The host sets epoch/step at epoch start and the iteration
// count after a resume; the RMSprop kernel advances them at the end of every step.
struct StepCounters {
    long long iteration;    // optimizer updates applied so far (the global step)
    long long stepInEpoch;  // global step within the epoch
    long long epoch;        // 0-based
    unsigned int ticket;    // last-block-done counter of the RMSprop kernel
    unsigned int pad;
    double window[3];       // loss sum, correct, images of all ranks since the host last read them
    double localWindow[2];  // loss sum, correct of this rank's batches (the loss kernel adds them)
};

// Dropout of one layer. The mask of element j (logical NHWC index within its sample) of
// the sample at epoch position p is a pure function of (seed, epoch, layer, p, j).
struct DropoutArgs {
    float rate = 0.0f;          // 0: no dropout
    unsigned int threshold = 0; // keep when the 24-bit draw >= threshold
    float scale = 1.0f;         // 1 / (1 - rate)
    unsigned int layer = 0;     // 1, 2, 3
    unsigned long long seed = 0;
    int batch = 0, rank = 0, workers = 1;
    const StepCounters* counters = nullptr;

    static DropoutArgs make(float rate, unsigned int layer, unsigned long long seed, int batch, int rank, int workers,
                            const StepCounters* counters) {
        DropoutArgs d;
        d.rate = rate;
        d.threshold = (unsigned int)(double(rate) * 16777216.0);
        d.scale = rate > 0.0f ? 1.0f / (1.0f - rate) : 1.0f;
        d.layer = layer, d.seed = seed, d.batch = batch, d.rank = rank, d.workers = workers, d.counters = counters;
        return d;
    }
};

// ---- augment.cu ----
struct AssembleArgs {
    const uint8_t* pixels = nullptr;  // data set, NHWC uint8
    const uint8_t* labels = nullptr;
    int h = 0, w = 0, c = 0;
    int batch = 0;
    // Training: image of sample i = perm[(stepInEpoch * workers + rank) * batch + i].
    const int32_t* perm = nullptr;
    const StepCounters* counters = nullptr;
    int rank = 0, workers = 1;
    // Evaluation (perm == nullptr): images [first, first + valid), the rest zero.
    long long first = 0;
    int valid = 0;
    bool augment = false;
    float widthShift = 0.1f, heightShift = 0.1f;
    bool flip = true;
    unsigned long long seed = 0;
    float* out = nullptr;  // (batch, c, h, w) in layout `shape`
    Tensor4 shape;
    int32_t* outLabels = nullptr;
};
void assembleBatch(const AssembleArgs& a, cudaStream_t s);

// ---- bias_act.cu ----
// y = dropout(relu?(y + bias[c])) in place.
void biasActivation(float* y, const Tensor4& t, const float* bias, bool relu, const DropoutArgs& drop, cudaStream_t s);

// Scratch of maskBiasGrad for one call site: per-block partial sums and a ticket.
struct ReduceScratch {
    float* partials = nullptr;  // partialsFloats(t) floats
    unsigned int* ticket = nullptr;  // zero before the first use; the kernel leaves it zero
    static size_t partialsFloats(const Tensor4& t);
};
// g = mask ? (y > 0 ? g * scale : 0) : g in place, then db[c] = sum of g over N, H, W
// (deterministic: fixed partition and summation order).
void maskBiasGrad(float* g, const float* y, const Tensor4& t, bool mask, float scale, float* db,
                  const ReduceScratch& scratch, cudaStream_t s);

// ---- pool.cu ----
// 2x2 stride-2 max pooling (odd edges dropped), then dropout.
void maxPoolForward(const float* x, const Tensor4& xt, float* y, const Tensor4& yt, const DropoutArgs& drop,
                    cudaStream_t s);
// gx = gradient routed to each window's (first) maximum, times the dropout factor and the
// ReLU mask of x (x is the previous ReLU's output). Every element of gx is written.
void maxPoolBackward(const float* x, const Tensor4& xt, const float* y, const float* gy, const Tensor4& yt, float* gx,
                     float dropScale, cudaStream_t s);

// ---- loss.cu ----
constexpr int kLossThreads = 256;  // its one block; fused.cu's head kernel sums in its order
struct LossArgs {
    const float* logits = nullptr;  // (batch, classes), without bias
    const float* bias = nullptr;    // (classes)
    const int32_t* labels = nullptr;
    int batch = 0, valid = 0, classes = 0;
    float* probs = nullptr;   // optional: softmax (batch, classes)
    float* grad = nullptr;    // optional: d mean loss / d logits, zero for rows >= valid
    float* dbias = nullptr;   // optional (with grad): column sums of grad
    float* extras = nullptr;  // optional: [loss sum, correct, valid] as floats (training)
    double* accum = nullptr;  // optional: += [loss sum, correct] (evaluation)
};
void softmaxLoss(const LossArgs& a, cudaStream_t s);

// ---- fused.cu ----
// bias + ReLU on a convolution's output y (in place, every element) and 2x2 max pooling with
// dropout of the result into p, in one pass: biasActivation(y, relu, no dropout) followed by
// maxPoolForward, bit for bit.
void biasReluMaxPool(float* y, const Tensor4& yt, const float* bias, float* p, const Tensor4& pt,
                     const DropoutArgs& drop, cudaStream_t s);
// maxPoolBackward into gx and the bias gradient of the convolution before it (db[c] = the
// sum of gx over N, H, W) in one kernel: maxPoolBackward followed by maskBiasGrad(gx, no
// mask), bit for bit. scratch: as maskBiasGrad's for xt.
void maxPoolBackwardBiasGrad(const float* x, const Tensor4& xt, const float* y, const float* gy, const Tensor4& yt,
                             float* gx, float dropScale, float* db, const ReduceScratch& scratch, cudaStream_t s);

// The network's head in one kernel, one block per sample: dense_1's bias + ReLU + dropout on
// its GEMM output (in place), dense_2 (a GEMV per sample), softmax + cross-entropy with the
// loss sums, and in training dense_2's backward (its kernel and bias gradients) and the
// gradient into dense_1 through its dropout and ReLU with dense_1's bias gradient. The last
// block to finish does the sums over samples. What the library path does with biasActivation,
// two cuBLAS GEMMs, softmaxLoss, two more GEMMs and maskBiasGrad: bit for bit in everything
// but the three products (dense_2 forward, its two gradients), which sum in other orders.
constexpr int kHeadThreads = 256, kHeadMaxUnits = 512;
struct HeadArgs {
    float* fc1 = nullptr;       // (batch, units): dense_1's GEMM output in, its activation out
    const float* b1 = nullptr;  // dense_1's bias
    DropoutArgs drop;           // dropout_3 (rate 0: off)
    int units = 0;              // <= kHeadMaxUnits
    const float* w2 = nullptr;  // dense_2's kernel, (units, classes)
    const float* b2 = nullptr;
    const int32_t* labels = nullptr;
    int batch = 0, valid = 0, classes = 0;  // classes <= kHeadThreads
    float* probs = nullptr;   // optional: softmax (batch, classes)
    double* accum = nullptr;  // optional: += [loss sum, correct] (evaluation)
    float* extras = nullptr;  // optional: [loss sum, correct, valid] as floats (training)
    // Training: all or none.
    float* gLogits = nullptr;  // (batch, classes): d mean loss / d logits
    float* dW2 = nullptr;      // (units, classes)
    float* db2 = nullptr;
    float* gFc1 = nullptr;     // (batch, units): through dropout_3 and the ReLU
    float* db1 = nullptr;
    // Scratch: 2 * batch doubles (each sample's loss and hit), and a ticket at zero (left so).
    double* rows = nullptr;
    unsigned int* ticket = nullptr;
};
void denseHead(const HeadArgs& a, cudaStream_t s);

// ---- first_layer.cu (the fused path's own conv2d_1) ----
// conv2d_1 (3x3, "same", kFirstLayerOut filters, at most kFirstLayerMaxIn input channels)
// with the batch assembly folded into its input load and bias + ReLU into its output: it
// writes the assembled batch (bit for bit assembleBatch's, for the backward pass and the
// self-check) and the layer's activation. Sums in its own order (not cuDNN's).
constexpr int kFirstLayerOut = 32, kFirstLayerMaxIn = 4;
struct FirstLayerArgs {
    AssembleArgs batch;         // the batch: batch.out and batch.outLabels are written
    const float* w = nullptr;   // conv2d_1's kernel, device layout (OHWI for NHWC, OIHW for NCHW)
    const float* bias = nullptr;
    float* y = nullptr;         // (batch, kFirstLayerOut, h, w), layout of batch.shape
};
void firstLayerForward(const FirstLayerArgs& a, cudaStream_t s);
// Its backward: the incoming gradient g masked by the ReLU (y > 0; g itself is not
// written), and from it the bias gradient (maskBiasGrad's summation order: bit for bit its
// result) and the kernel gradient (device layout) over the input x. One kernel; partials:
// firstLayerPartialsFloats(yt, x channels) floats, ticket at zero (left so).
size_t firstLayerPartialsFloats(const Tensor4& yt, int inC);
void firstLayerBackward(const float* g, const float* y, const Tensor4& yt, const float* x, const Tensor4& xt, float* dw,
                        float* db, float* partials, unsigned int* ticket, cudaStream_t s);

// ---- layer_forward.cu / layer_backward.cu (the fused path's own conv2d_2..4, dense_1) ----
// A layer as an implicit GEMM: a 3x3 stride-1 convolution ("same": pad 1, "valid": pad 0)
// with weights in the device layout (OHWI for NHWC, OIHW for NCHW), or a dense layer on
// (N, in) rows with the canonical (in, out) kernel. FP32 in every mode (also with --tf32).
constexpr int kGemmThreads = 128;
struct GemmLayer {
    Tensor4 x, y;        // input, output (dense: Tensor4::matrix(batch, in / out))
    bool dense = false;
    int pad = 0;
    static GemmLayer conv(const Tensor4& x, int outC, bool same) {
        GemmLayer L;
        L.x = x, L.pad = same ? 1 : 0;
        L.y = Tensor4::make(x.n, outC, same ? x.h : x.h - 2, same ? x.w : x.w - 2, x.nhwc);
        return L;
    }
    static GemmLayer denseLayer(int batch, int in, int out) {
        GemmLayer L;
        L.x = Tensor4::matrix(batch, in), L.y = Tensor4::matrix(batch, out), L.dense = true;
        return L;
    }
    TD_CUDA_HD int taps() const { return dense ? x.c : 9 * x.c; }  // the forward reduction length
};

// y = x * w, then (bias != null) + bias and ReLU as biasActivation does, and (p != null)
// 2x2 max pooling with dropout into p as maxPoolForward does: bit for bit
// biasReluMaxPool / biasActivation on the same sums. The sums: gemm_tile.cuh's order; a
// dense layer splits its reduction (partials/tickets: layerForwardScratch), a convolution
// does not.
struct LayerForwardArgs {
    GemmLayer layer;
    const float* x = nullptr;
    const float* w = nullptr;
    const float* bias = nullptr;  // null: the plain sums (dense_1: the head adds bias + ReLU)
    float* y = nullptr;
    float* p = nullptr;           // optional: pooled output, shape pt
    Tensor4 pt;
    DropoutArgs drop;             // of the pooled output
    float* partials = nullptr;
    unsigned int* tickets = nullptr;
};
struct GemmScratchSize {
    size_t partials = 0, tickets = 0;  // floats, unsigned ints (zero before the first use; left so)
};
GemmScratchSize layerForwardScratch(const GemmLayer& L);
void layerForward(const LayerForwardArgs& a, cudaStream_t s);

// The backward pass of a layer in one kernel. Its blocks compute, from gy (the gradient at
// the layer's sums, i.e. already through its own ReLU / pooling / dropout):
//  - the weight gradient dw and (db != null) the bias gradient, db[c] = sum of gy over
//    N, H, W, as one GEMM with a row of ones (split over the reduction: scratch);
//  - (gx != null) the data gradient into the previous layer, through its activation:
//      kNone   gx = the sums
//      kRelu   gx = x > 0 ? the sums : 0             (maskBiasGrad's mask, scale 1)
//      kPool   x is the pooled, dropped-out output of a max pooling of `pre` (shape preT,
//              a ReLU's output): the sums are routed into gx (shape preT) as
//              maxPoolBackward does (first maximum, ReLU mask, dropout, odd edges zero).
enum class GradInput { kNone, kRelu, kPool };
struct LayerBackwardArgs {
    GemmLayer layer;
    const float* x = nullptr;
    const float* w = nullptr;
    const float* gy = nullptr;
    float* dw = nullptr;
    float* db = nullptr;
    float* gx = nullptr;
    GradInput through = GradInput::kNone;
    const float* pre = nullptr;  // kPool
    Tensor4 preT;                // kPool; x is its pooled shape (a dense layer's x: the same
                                 // elements, flattened)
    float dropScale = 1.0f;      // kPool: the dropout after the pooling
    float* partials = nullptr;
    unsigned int* tickets = nullptr;
};
GemmScratchSize layerBackwardScratch(const GemmLayer& L, bool bias);
void layerBackward(const LayerBackwardArgs& a, cudaStream_t s);
// The split of the reduction both kernels use for a sum over `k` values (host and tests).
constexpr int kGemmSplitLength = 512;   // a multiple of gemm_tile.cuh's kTileK
inline int gemmSplits(long long k) { return int((k + kGemmSplitLength - 1) / kGemmSplitLength); }

// ---- rmsprop.cu ----
struct RmspropArgs {
    float* params = nullptr;
    float* accum = nullptr;
    const float* grads = nullptr;  // n gradients, then the step's [loss, correct, count]
    size_t n = 0;                  // multiple of 4
    float gradScale = 1.0f;
    double lr = 1e-4, decay = 1e-6;  // lr_t = lr / (1 + decay * iteration)
    float rho = 0.9f, epsilon = 1e-7f;
    StepCounters* counters = nullptr;
    double extrasScale = 1.0;      // factor for the step's sums (1: they are exact sums over ranks)
};
void rmspropStep(const RmspropArgs& a, cudaStream_t s);

// Small set-up kernels (outside the captured step).
void setEpoch(StepCounters* c, long long epoch, cudaStream_t s);  // also stepInEpoch = 0
void setIteration(StepCounters* c, long long iteration, cudaStream_t s);

}  // namespace td::cuda
