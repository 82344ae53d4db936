// The --gpu-kernels fused path (trainer/src/cuda/fused.cu) against the library path, without
// a GPU: the kernels run through the CUDA host emulation, the convolutions and GEMMs are the
// oneDNN stand-ins of emulated_gpu_step.h.
//
//  1. Each fused kernel against the run of library kernels it replaces, on the tutorial
//     model's shapes (batch 32 and 7, NHWC and NCHW, even and odd pooling inputs, inputs
//     full of ties, dropout on), bit for bit:
//       biasReluMaxPool         = biasActivation (ReLU) + maxPoolForward (with dropout)
//       maxPoolBackwardBiasGrad = maxPoolBackward + maskBiasGrad (no mask)
//       denseHead               = biasActivation (ReLU + dropout) + dense_2 + softmaxLoss
//                                 + dense_2's two gradients + maskBiasGrad (dropout, ReLU)
//     For denseHead the three products (cuBLAS on a GPU) are computed here on the host in
//     the kernel's summation order, so every other value is compared bit for bit; training
//     and evaluation (padded batch, probabilities), 10 and 100 classes, and a batch of 300
//     (the loss sums' order over the library kernel's 256 threads).
//  2. Whole training steps (augmentation and dropout on, 2 steps): the fused path's layer
//     outputs of step 1 equal the library path's bit for bit (they differ only after the
//     first update); its gradients, weights, accumulators and loss sums equal them within
//     1e-5 of each tensor's largest value (dense_2's products sum in another order: a few
//     float roundings, 1e-7 relative, carried through the backward pass); counters exactly.
//  3. The fused path against the CPU backend, as trainer_gpu_emulated_step holds the library
//     path (same tolerances: 1e-4 gradients, 1e-5 state).
//  4. Kernels per step, counted by the emulator's launch statistics (own kernels) and by the
//     oneDNN stand-ins (each one cuDNN or cuBLAS call): library 17 + 17, fused 12 + 0 (a
//     fusion undone shows as 13 or more, a library call as a stand-in call).
//     On a GPU a library call may launch more than one kernel (the H100's CUDA graph held
//     46 kernels for the library path's 34 launches); only a GPU run counts those.
//  5. (Before 2.) The own implicit-GEMM layers (conv2d_2..4, dense_1: layer_forward.cu,
//     layer_backward.cu) on CIFAR shapes in NHWC and NCHW and on 28x28: their sums against
//     oneDNN's convolutions/GEMMs within 1e-5 (forward, data and weight gradients; the bias
//     gradient against maskBiasGrad's), and their epilogues bit for bit the library kernels'
//     on the same sums (biasActivation, maxPoolForward with dropout, maskBiasGrad's ReLU mask,
//     maxPoolBackward with dropout and odd edges), every buffer between NaN guard zones.
//
// Exit codes: 0 all passed, 1 a check failed.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cuda/kernels.h"
#include "data/shuffle.h"
#include "dist/dist.h"
#include "util/rng.h"

#include "emulated_gpu_step.h"
#include "guarded_buffer.h"
#include "layer_compare.h"

using namespace td;
using namespace td::test;

namespace {

rng::Stream g_rng(4646);
constexpr double kExact = 0.0, kTolPaths = 1e-5, kTolGrad = 1e-4, kTolState = 1e-5;
constexpr uint64_t kSeed = 77;
constexpr int kEpoch = 3, kRank = 1, kWorkers = 2;
constexpr int64_t kStep = 5;

std::vector<float> randomVec(size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (float& x : v) x = lo + (hi - lo) * g_rng.uniform();
    return v;
}

tc::StepCounters countersAt(int epoch, int64_t step) {
    tc::StepCounters c{};
    c.epoch = epoch, c.stepInEpoch = step;
    return c;
}

// ---- 1. the kernels ----

// A convolution's raw output -> bias + ReLU -> max pool + dropout, and back.
void testPoolKernels(const char* name, unsigned layer, int B, int C, int H, int W, bool nhwc, bool ties) {
    std::printf("%s: fused bias + ReLU + pool + dropout and pool backward + bias gradient, %dx%dx%dx%d, %s%s\n", name,
                B, H, W, C, nhwc ? "NHWC" : "NCHW", ties ? ", ties" : "");
    const tc::Tensor4 yt = tc::Tensor4::make(B, C, H, W, nhwc), pt = tc::Tensor4::make(B, C, H / 2, W / 2, nhwc);
    std::vector<float> z = randomVec(size_t(yt.size()), -1.0f, 1.0f);
    if (ties)
        for (float& v : z) v = std::floor(v * 2.5f) * 0.5f;  // -1 .. 1 in steps of 0.5: equal maxima
    const std::vector<float> b = ties ? std::vector<float>(size_t(C), 0.0f) : randomVec(size_t(C), -0.2f, 0.2f);
    Guarded<tc::StepCounters> counters(std::vector<tc::StepCounters>{countersAt(kEpoch, kStep)});
    const tc::DropoutArgs drop = tc::DropoutArgs::make(0.25f, layer, kSeed, B, kRank, kWorkers, counters.get());

    Guarded<float> yLib(z), pLib{size_t(pt.size())}, yFused(z), pFused{size_t(pt.size())}, bias(b);
    tc::biasActivation(yLib.get(), yt, bias.get(), true, tc::DropoutArgs{}, nullptr);
    tc::maxPoolForward(yLib.get(), yt, pLib.get(), pt, drop, nullptr);
    tc::biasReluMaxPool(yFused.get(), yt, bias.get(), pFused.get(), pt, drop, nullptr);
    check("forward: activation (every element)", yFused.host(), yLib.host(), kExact);
    check("forward: pooled + dropout", pFused.host(), pLib.host(), kExact);

    const std::vector<float> gy = randomVec(size_t(pt.size()), -1.0f, 1.0f);
    Guarded<float> gyBuf(gy), gxLib{size_t(yt.size())}, gxFused{size_t(yt.size())}, dbLib{size_t(C)}, dbFused{size_t(C)};
    Guarded<float> partials(tc::ReduceScratch::partialsFloats(yt));
    Guarded<unsigned int> ticket(std::vector<unsigned int>{0u});
    tc::maxPoolBackward(yLib.get(), yt, pLib.get(), gyBuf.get(), pt, gxLib.get(), drop.scale, nullptr);
    tc::maskBiasGrad(gxLib.get(), yLib.get(), yt, false, 1.0f, dbLib.get(), {partials.get(), ticket.get()}, nullptr);
    tc::maxPoolBackwardBiasGrad(yLib.get(), yt, pLib.get(), gyBuf.get(), pt, gxFused.get(), drop.scale, dbFused.get(),
                                {partials.get(), ticket.get()}, nullptr);
    check("backward: d input", gxFused.host(), gxLib.host(), kExact);
    check("backward: d bias", dbFused.host(), dbLib.host(), kExact);
    expect(ticket.host()[0] == 0u, "reduction ticket left at zero");
    expectInside(counters, yLib, pLib, yFused, pFused, bias, gyBuf, gxLib, gxFused, dbLib, dbFused, partials, ticket);
}

// The products of the head in denseHead's summation order (the GEMMs of the library path).
std::vector<float> headLogits(const std::vector<float>& act, const std::vector<float>& w2, int B, int U, int K) {
    const int groups = tc::kHeadThreads / K;
    std::vector<float> z(size_t(B) * K);
    for (int i = 0; i < B; ++i)
        for (int k = 0; k < K; ++k) {
            float total = 0.0f;
            for (int gi = 0; gi < groups; ++gi) {
                float s = 0.0f;
                for (int j = gi; j < U; j += groups) s += act[size_t(i) * U + j] * w2[size_t(j) * K + k];
                total += s;
            }
            z[size_t(i) * K + k] = total;
        }
    return z;
}

void testHead(int B, int valid, int K, bool train) {
    const int U = 512;
    std::printf("head: dense_1 activation + dense_2 + softmax loss%s, batch %d (%d valid), %d classes\n",
                train ? " + backward, dropout 0.5" : ", evaluation", B, valid, K);
    const std::vector<float> raw = randomVec(size_t(B) * U, -1.0f, 1.0f), b1 = randomVec(size_t(U), -0.2f, 0.2f);
    const std::vector<float> w2 = randomVec(size_t(U) * K, -0.1f, 0.1f), b2 = randomVec(size_t(K), -1.0f, 1.0f);
    std::vector<int32_t> labels(static_cast<size_t>(B));
    for (int32_t& v : labels) v = int32_t(g_rng.below(uint64_t(K)));
    Guarded<tc::StepCounters> counters(std::vector<tc::StepCounters>{countersAt(kEpoch, kStep)});
    const tc::DropoutArgs drop =
        train ? tc::DropoutArgs::make(0.5f, 3, kSeed, B, kRank, kWorkers, counters.get()) : tc::DropoutArgs{};
    const tc::Tensor4 ft = tc::Tensor4::matrix(B, U);
    Guarded<float> bias1(b1), weights2(w2), bias2(b2);
    Guarded<int32_t> y(labels);

    // The library path: its kernels, with the GEMMs as the head orders them.
    Guarded<float> fcLib(raw);
    tc::biasActivation(fcLib.get(), ft, bias1.get(), true, drop, nullptr);
    const std::vector<float> act = fcLib.host();
    Guarded<float> logits(headLogits(act, w2, B, U, K)), probsLib{size_t(B) * K}, gLogitsLib{size_t(B) * K};
    Guarded<float> db2Lib{size_t(K)}, extrasLib(3);
    Guarded<double> accumLib(std::vector<double>{0.5, 1.0});
    tc::LossArgs l;
    l.logits = logits.get(), l.bias = bias2.get(), l.labels = y.get(), l.batch = B, l.valid = valid, l.classes = K;
    l.probs = probsLib.get(), l.accum = accumLib.get();
    if (train) l.grad = gLogitsLib.get(), l.dbias = db2Lib.get(), l.extras = extrasLib.get();
    tc::softmaxLoss(l, nullptr);

    // The fused head.
    Guarded<float> fcFused(raw), probsFused{size_t(B) * K}, gLogitsFused{size_t(B) * K}, dW2{size_t(U) * K};
    Guarded<float> db2Fused{size_t(K)}, gFc1{size_t(B) * U}, db1{size_t(U)}, extrasFused(3);
    Guarded<double> accumFused(std::vector<double>{0.5, 1.0}), rows{size_t(2) * B};
    Guarded<unsigned int> ticket(std::vector<unsigned int>{0u});
    tc::HeadArgs h;
    h.fc1 = fcFused.get(), h.b1 = bias1.get(), h.drop = drop, h.units = U, h.w2 = weights2.get(), h.b2 = bias2.get();
    h.labels = y.get(), h.batch = B, h.valid = valid, h.classes = K, h.probs = probsFused.get();
    h.accum = accumFused.get(), h.rows = rows.get(), h.ticket = ticket.get();
    if (train) {
        h.extras = extrasFused.get(), h.gLogits = gLogitsFused.get(), h.dW2 = dW2.get(), h.db2 = db2Fused.get();
        h.gFc1 = gFc1.get(), h.db1 = db1.get();
    }
    tc::denseHead(h, nullptr);

    check("dense_1 activation (+ dropout)", fcFused.host(), act, kExact);
    check("probabilities", probsFused.host(), probsLib.host(), kExact);
    const std::vector<double> aLib = accumLib.host(), aFused = accumFused.host();
    expect(aLib == aFused, "loss sum and correct count (evaluation sums), bit for bit");
    expect(ticket.host()[0] == 0u, "ticket left at zero");
    if (train) {
        const std::vector<float> g = gLogitsLib.host();
        check("d logits", gLogitsFused.host(), g, kExact);
        check("d dense_2 bias", db2Fused.host(), db2Lib.host(), kExact);
        expect(extrasFused.host() == extrasLib.host(), "step sums riding with the gradients, bit for bit");
        // dense_2's kernel gradient and the gradient into dense_1 in the head's order, then
        // the library's mask + bias gradient kernel.
        std::vector<float> dW2Ref(size_t(U) * K), gIn(size_t(B) * U);
        for (int j = 0; j < U; ++j)
            for (int k = 0; k < K; ++k) {
                float s = 0.0f;
                for (int r = 0; r < B; ++r) s += act[size_t(r) * U + j] * g[size_t(r) * K + k];
                dW2Ref[size_t(j) * K + k] = s;
            }
        for (int i = 0; i < B; ++i)
            for (int j = 0; j < U; ++j) {
                float s = 0.0f;
                for (int k = 0; k < K; ++k) s += g[size_t(i) * K + k] * w2[size_t(j) * K + k];
                gIn[size_t(i) * U + j] = s;
            }
        Guarded<float> gLib(gIn), db1Lib{size_t(U)}, partials(tc::ReduceScratch::partialsFloats(ft));
        Guarded<unsigned int> t2(std::vector<unsigned int>{0u});
        tc::maskBiasGrad(gLib.get(), fcLib.get(), ft, true, drop.scale, db1Lib.get(), {partials.get(), t2.get()}, nullptr);
        check("d dense_2 kernel", dW2.host(), dW2Ref, kExact);
        check("d dense_1 output (through dropout, ReLU)", gFc1.host(), gLib.host(), kExact);
        check("d dense_1 bias", db1.host(), db1Lib.host(), kExact);
        expectInside(gLib, db1Lib, partials, t2);
    }
    expectInside(counters, bias1, weights2, bias2, y, fcLib, logits, probsLib, gLogitsLib, db2Lib, extrasLib,
                 accumLib, fcFused, probsFused, gLogitsFused, dW2, db2Fused, gFc1, db1, extrasFused, accumFused, rows,
                 ticket);
}

// conv2d_1 as the fused path's own kernel: the batch assembled inside it (bit for bit
// assembleBatch's), the convolution + bias + ReLU (bit for bit the same sums taken in the
// kernel's order on the host, within 1e-5 of oneDNN's convolution), and its backward (the
// bias gradient bit for bit maskBiasGrad's, the kernel gradient within 1e-5 of oneDNN's).
void testFirstLayer(int B, int H, int W, int C, bool nhwc) {
    const int O = tc::kFirstLayerOut;
    std::printf("first layer: assembly + conv2d_1 + bias + ReLU and its backward, %dx%dx%dx%d, %s (rank %d of %d)\n", B,
                H, W, C, nhwc ? "NHWC" : "NCHW", kRank, kWorkers);
    Dataset d;
    d.n = int64_t(kWorkers) * B * (kStep + 1) + 3;
    d.h = H, d.w = W, d.c = C;
    d.pixels.resize(size_t(d.n) * d.imageSize());
    d.labels.resize(size_t(d.n));
    for (uint8_t& v : d.pixels) v = uint8_t(g_rng.below(256));
    for (uint8_t& v : d.labels) v = uint8_t(g_rng.below(10));
    std::vector<int32_t> perm;
    epochPermutation(d.n, kSeed, kEpoch, perm);
    Guarded<uint8_t> pixels(d.pixels), labels(d.labels);
    Guarded<int32_t> dPerm(perm), labLib{size_t(B)}, labFused{size_t(B)};
    Guarded<tc::StepCounters> counters(std::vector<tc::StepCounters>{countersAt(kEpoch, kStep)});
    const tc::Tensor4 xt = tc::Tensor4::make(B, C, H, W, nhwc), yt = tc::Tensor4::make(B, O, H, W, nhwc);
    Guarded<float> xLib{size_t(xt.size())}, xFused{size_t(xt.size())}, yFused{size_t(yt.size())};
    const std::vector<float> w = randomVec(size_t(9) * C * O, -0.3f, 0.3f), b = randomVec(size_t(O), -0.2f, 0.2f);
    Guarded<float> dW(w), dB(b);  // device layout: random either way
    AugmentParams aug;
    tc::AssembleArgs a;
    a.pixels = pixels.get(), a.labels = labels.get(), a.h = H, a.w = W, a.c = C, a.batch = B;
    a.perm = dPerm.get(), a.counters = counters.get(), a.rank = kRank, a.workers = kWorkers;
    a.augment = true, a.widthShift = aug.widthShift, a.heightShift = aug.heightShift, a.flip = aug.horizontalFlip;
    a.seed = kSeed, a.out = xLib.get(), a.shape = xt, a.outLabels = labLib.get();
    tc::assembleBatch(a, nullptr);
    tc::FirstLayerArgs f;
    f.batch = a, f.batch.out = xFused.get(), f.batch.outLabels = labFused.get();
    f.w = dW.get(), f.bias = dB.get(), f.y = yFused.get();
    tc::firstLayerForward(f, nullptr);
    const std::vector<float> x = xLib.host();
    check("assembled batch", xFused.host(), x, kExact);
    expect(labFused.host() == labLib.host(), "labels");

    // The host in the kernel's order: taps (ky, kx, ci), then + bias, ReLU.
    auto wAt = [&](int o, int ky, int kx, int ci) {
        return w[nhwc ? size_t(((o * 3 + ky) * 3 + kx) * C + ci) : size_t(((o * C + ci) * 3 + ky) * 3 + kx)];
    };
    std::vector<float> yRef(size_t(yt.size()));
    for (int n = 0; n < B; ++n)
        for (int h = 0; h < H; ++h)
            for (int q = 0; q < W; ++q)
                for (int o = 0; o < O; ++o) {
                    float acc = 0.0f;
                    for (int ky = 0; ky < 3; ++ky)
                        for (int kx = 0; kx < 3; ++kx)
                            for (int ci = 0; ci < C; ++ci) {
                                const int yy = h + ky - 1, xx = q + kx - 1;
                                const bool in = yy >= 0 && yy < H && xx >= 0 && xx < W;
                                acc += (in ? x[size_t(n * xt.sn + ci * xt.sc + yy * xt.sh + xx * xt.sw)] : 0.0f) *
                                       wAt(o, ky, kx, ci);
                            }
                    yRef[size_t(n * yt.sn + o * yt.sc + h * yt.sh + q * yt.sw)] = std::fmax(acc + b[size_t(o)], 0.0f);
                }
    check("conv2d_1 + bias + ReLU (the kernel's order)", yFused.host(), yRef, kExact);
    // Against the library path's convolution (oneDNN standing in for cuDNN) + biasActivation.
    Ctx ctx;
    LayoutConv conv(ctx, xt, O, true);
    std::vector<float> yLib(size_t(yt.size()));
    conv.forward(x.data(), w.data(), yLib.data());
    Guarded<float> yLibBuf(yLib);
    tc::biasActivation(yLibBuf.get(), yt, dB.get(), true, tc::DropoutArgs{}, nullptr);
    check("conv2d_1 + bias + ReLU (vs the library path)", yFused.host(), yLibBuf.host(), kTolPaths);

    // Backward from the library path's activation, so that both sides mask the same elements.
    const std::vector<float> g = randomVec(size_t(yt.size()), -1.0f, 1.0f);
    Guarded<float> gBuf(g), dwFused{w.size()}, dbFused{size_t(O)}, partials(tc::firstLayerPartialsFloats(yt, C));
    Guarded<unsigned int> ticket(std::vector<unsigned int>{0u});
    tc::firstLayerBackward(gBuf.get(), yLibBuf.get(), yt, xLib.get(), xt, dwFused.get(), dbFused.get(), partials.get(),
                           ticket.get(), nullptr);
    expect(gBuf.host() == g, "the incoming gradient is left as it was");
    Guarded<float> gLib(g), dbLib{size_t(O)}, p2(tc::ReduceScratch::partialsFloats(yt));
    Guarded<unsigned int> t2(std::vector<unsigned int>{0u});
    tc::maskBiasGrad(gLib.get(), yLibBuf.get(), yt, true, 1.0f, dbLib.get(), {p2.get(), t2.get()}, nullptr);
    check("d bias", dbFused.host(), dbLib.host(), kExact);
    std::vector<float> dwLib(w.size());
    conv.backwardFilter(x.data(), gLib.host().data(), dwLib.data());
    check("d kernel (vs the library path)", dwFused.host(), dwLib, kTolPaths);
    expect(ticket.host()[0] == 0u, "ticket left at zero");
    expectInside(pixels, labels, dPerm, labLib, labFused, counters, xLib, xFused, yFused, dW, dB, yLibBuf, gBuf,
                 dwFused, dbFused, partials, ticket, gLib, dbLib, p2, t2);
}

// ---- the own implicit-GEMM layers (layer_forward.cu, layer_backward.cu) ----

// ReLU'd random values: the activations the layers read (zeros for the ReLU masks).
std::vector<float> reluVec(size_t n) {
    std::vector<float> v = randomVec(n, -1.0f, 1.0f);
    for (float& x : v) x = std::fmax(x, 0.0f);
    return v;
}

// One of conv2d_2..4 or dense_1 as the fused path runs it, against the library path:
//  - forward: the plain sums (no epilogue) within 1e-5 of oneDNN's convolution / GEMM
//    (cuDNN / cuBLAS on a GPU); with bias + ReLU (+ pooling + dropout) bit for bit
//    biasActivation (+ maxPoolForward) applied to those sums;
//  - backward: the weight and bias gradients within 1e-5 of oneDNN's and maskBiasGrad's;
//    the data gradient without epilogue within 1e-5 of oneDNN's; through the previous ReLU
//    or max pooling bit for bit maskBiasGrad's mask / maxPoolBackward applied to those sums.
// x of a layer after a pooling (conv2d_3, dense_1) is the pooled, dropped-out output of a
// ReLU'd `pre` of shape preT.
struct OwnLayerCase {
    const char* name;
    tc::GemmLayer layer;
    bool poolAfter = false;               // conv2d_2, conv2d_4
    tc::GradInput through = tc::GradInput::kNone;
    tc::Tensor4 preT;                     // through == kPool
};

void testOwnLayer(const OwnLayerCase& t) {
    const tc::GemmLayer& L = t.layer;
    const tc::Tensor4 &xt = L.x, &yt = L.y;
    const bool pool = t.through == tc::GradInput::kPool;
    std::printf("%s as own implicit GEMM: %dx%dx%dx%d -> %dx%dx%dx%d, %s%s%s\n", t.name, xt.n, xt.h, xt.w, xt.c, yt.n,
                yt.h, yt.w, yt.c, xt.nhwc ? "NHWC" : "NCHW", t.poolAfter ? ", + pool + dropout" : "",
                pool ? ", backward through pool + dropout" : (t.through == tc::GradInput::kRelu ? ", backward through ReLU" : ""));
    Guarded<tc::StepCounters> counters(std::vector<tc::StepCounters>{countersAt(kEpoch, kStep)});
    // The input: ReLU'd values, or the pooled + dropped-out output of ReLU'd values.
    const tc::Tensor4 ptIn = pool ? tc::Tensor4::make(t.preT.n, t.preT.c, t.preT.h / 2, t.preT.w / 2, t.preT.nhwc)
                                  : tc::Tensor4{};
    const tc::DropoutArgs dropIn = tc::DropoutArgs::make(0.25f, 1, kSeed, xt.n, kRank, kWorkers, counters.get());
    Guarded<float> pre(pool ? reluVec(size_t(t.preT.size())) : std::vector<float>(1, 0.0f));
    Guarded<float> x(reluVec(size_t(xt.size())));
    if (pool) tc::maxPoolForward(pre.get(), t.preT, x.get(), ptIn, dropIn, nullptr);
    const std::vector<float> xh = x.host();
    const size_t wn = size_t(L.taps()) * size_t(yt.c);
    const std::vector<float> wv = randomVec(wn, -0.1f, 0.1f);
    Guarded<float> w(wv), bias(randomVec(size_t(yt.c), -0.2f, 0.2f));
    const tc::GemmScratchSize fs = tc::layerForwardScratch(L);
    Guarded<float> fPartials(std::max<size_t>(fs.partials, 1));
    Guarded<unsigned int> fTickets(std::vector<unsigned int>(std::max<size_t>(fs.tickets, 1), 0u));

    // Forward: the plain sums against oneDNN.
    Guarded<float> raw{size_t(yt.size())};
    tc::LayerForwardArgs f;
    f.layer = L, f.x = x.get(), f.w = w.get(), f.y = raw.get(), f.partials = fPartials.get(), f.tickets = fTickets.get();
    tc::layerForward(f, nullptr);
    Ctx ctx;
    std::vector<float> ref(size_t(yt.size()));
    std::unique_ptr<LayoutConv> conv;
    std::unique_ptr<LayoutDense> dense;
    if (L.dense) {
        dense = std::make_unique<LayoutDense>(ctx, xt.n, xt.c, yt.c);
        dense->forward(xh.data(), wv.data(), ref.data());
    } else {
        conv = std::make_unique<LayoutConv>(ctx, xt, yt.c, L.pad == 1);
        conv->forward(xh.data(), wv.data(), ref.data());
    }
    const std::vector<float> sums = raw.host();
    check("forward sums (vs the library path)", sums, ref, kTolPaths);
    expect(fTickets.host() == std::vector<unsigned int>(fTickets.host().size(), 0u), "forward tickets left at zero");
    if (!L.dense) {  // the epilogue, bit for bit the library kernels' on the same sums
        const tc::Tensor4 pt = tc::Tensor4::make(yt.n, yt.c, yt.h / 2, yt.w / 2, yt.nhwc);
        const tc::DropoutArgs drop = tc::DropoutArgs::make(0.25f, 2, kSeed, yt.n, kRank, kWorkers, counters.get());
        Guarded<float> yFused{size_t(yt.size())}, pFused{size_t(std::max<long long>(pt.size(), 1))};
        Guarded<float> yLib(sums), pLib{size_t(std::max<long long>(pt.size(), 1))};
        f.bias = bias.get(), f.y = yFused.get();
        if (t.poolAfter) f.p = pFused.get(), f.pt = pt, f.drop = drop;
        tc::layerForward(f, nullptr);
        tc::biasActivation(yLib.get(), yt, bias.get(), true, tc::DropoutArgs{}, nullptr);
        check("forward + bias + ReLU (vs biasActivation)", yFused.host(), yLib.host(), kExact);
        if (t.poolAfter) {
            tc::maxPoolForward(yLib.get(), yt, pLib.get(), pt, drop, nullptr);
            check("forward + pool + dropout (vs maxPoolForward)", pFused.host(), pLib.host(), kExact);
        }
        expectInside(yFused, pFused, yLib, pLib);
    }

    // Backward.
    const std::vector<float> gyv = randomVec(size_t(yt.size()), -1.0f, 1.0f);
    Guarded<float> gy(gyv), dw{wn}, db{size_t(yt.c)}, gxRaw{size_t(xt.size())};
    const bool hasBias = !L.dense;
    const tc::GemmScratchSize bs = tc::layerBackwardScratch(L, hasBias);
    Guarded<float> bPartials(std::max<size_t>(bs.partials, 1));
    Guarded<unsigned int> bTickets(std::vector<unsigned int>(std::max<size_t>(bs.tickets, 1), 0u));
    tc::LayerBackwardArgs b;
    b.layer = L, b.x = x.get(), b.w = w.get(), b.gy = gy.get(), b.dw = dw.get(), b.db = hasBias ? db.get() : nullptr;
    b.gx = gxRaw.get(), b.partials = bPartials.get(), b.tickets = bTickets.get();
    tc::layerBackward(b, nullptr);
    std::vector<float> dwRef(wn), gxRef(size_t(xt.size()));
    if (L.dense) {
        dense->backwardWeights(xh.data(), gyv.data(), dwRef.data());
        dense->backwardData(wv.data(), gyv.data(), gxRef.data());
    } else {
        conv->backwardFilter(xh.data(), gyv.data(), dwRef.data());
        conv->backwardData(wv.data(), gyv.data(), gxRef.data());
    }
    check("d kernel (vs the library path)", dw.host(), dwRef, kTolPaths);
    const std::vector<float> gxSums = gxRaw.host();
    check("d input sums (vs the library path)", gxSums, gxRef, kTolPaths);
    expect(bTickets.host() == std::vector<unsigned int>(bTickets.host().size(), 0u), "backward tickets left at zero");
    if (hasBias) {
        Guarded<float> gLib(gyv), dbLib{size_t(yt.c)}, partials(tc::ReduceScratch::partialsFloats(yt));
        Guarded<unsigned int> ticket(std::vector<unsigned int>{0u});
        tc::maskBiasGrad(gLib.get(), gLib.get(), yt, false, 1.0f, dbLib.get(), {partials.get(), ticket.get()}, nullptr);
        check("d bias (vs maskBiasGrad)", db.host(), dbLib.host(), kTolPaths);
    }
    if (t.through != tc::GradInput::kNone) {  // the epilogue, bit for bit the library kernels'
        const tc::Tensor4 gxT = pool ? t.preT : xt;
        Guarded<float> gxFused{size_t(gxT.size())}, gxLib{size_t(gxT.size())};
        b.gx = gxFused.get(), b.through = t.through, b.pre = pre.get(), b.preT = t.preT, b.dropScale = dropIn.scale;
        tc::layerBackward(b, nullptr);
        Guarded<float> sumsBuf(gxSums);
        if (pool) {
            tc::maxPoolBackward(pre.get(), t.preT, x.get(), sumsBuf.get(), ptIn, gxLib.get(), dropIn.scale, nullptr);
            check("d input through pool + dropout (vs maxPoolBackward)", gxFused.host(), gxLib.host(), kExact);
        } else {
            Guarded<float> dbLib{size_t(xt.c)}, partials(tc::ReduceScratch::partialsFloats(xt));
            Guarded<unsigned int> ticket(std::vector<unsigned int>{0u});
            tc::maskBiasGrad(sumsBuf.get(), x.get(), xt, true, 1.0f, dbLib.get(), {partials.get(), ticket.get()},
                             nullptr);
            check("d input through ReLU (vs maskBiasGrad's mask)", gxFused.host(), sumsBuf.host(), kExact);
        }
        expectInside(gxFused, gxLib, sumsBuf);
    }
    expectInside(counters, pre, x, w, bias, fPartials, fTickets, raw, gy, dw, db, gxRaw, bPartials, bTickets);
}

// conv2d_2..4 and dense_1 of an HxW image in the layout, batch B.
void testOwnLayers(int B, int H, int W, bool nhwc) {
    const tc::Tensor4 a1 = tc::Tensor4::make(B, 32, H, W, nhwc);
    const tc::GemmLayer c2 = tc::GemmLayer::conv(a1, 32, false);
    const tc::Tensor4 p1 = tc::Tensor4::make(B, 32, c2.y.h / 2, c2.y.w / 2, nhwc);
    const tc::GemmLayer c3 = tc::GemmLayer::conv(p1, 64, true);
    const tc::GemmLayer c4 = tc::GemmLayer::conv(c3.y, 64, false);
    const tc::Tensor4 p2 = tc::Tensor4::make(B, 64, c4.y.h / 2, c4.y.w / 2, nhwc);
    const tc::GemmLayer d1 = tc::GemmLayer::denseLayer(B, int(p2.c * p2.h * p2.w), 512);
    testOwnLayer({"conv2d_2", c2, true, tc::GradInput::kNone, {}});
    testOwnLayer({"conv2d_3", c3, false, tc::GradInput::kPool, c2.y});
    testOwnLayer({"conv2d_4", c4, true, tc::GradInput::kRelu, {}});
    testOwnLayer({"dense_1", d1, false, tc::GradInput::kPool, c4.y});
}

// ---- 2.-4. whole steps ----

RmsPropConfig optimizer() {  // as trainer_gpu_emulated_step: a wrong update shows
    RmsPropConfig c;
    c.lr = 1e-3, c.decay = 1e-2, c.epsilon = 1e-3f;
    return c;
}

Dataset cifarShaped(int batch, int steps) {
    Dataset d;
    d.n = int64_t(batch) * (steps + 1) + 5;
    d.h = 32, d.w = 32, d.c = 3;
    d.pixels.resize(size_t(d.n) * d.imageSize());
    d.labels.resize(size_t(d.n));
    rng::Stream s(uint64_t(batch) * 7919);
    for (uint8_t& v : d.pixels) v = uint8_t(s.below(256));
    for (uint8_t& v : d.labels) v = uint8_t(s.below(10));
    return d;
}

std::vector<float> slice(const std::vector<float>& v, const ParamInfo& p) {
    return std::vector<float>(v.begin() + long(p.offset), v.begin() + long(p.offset + p.size));
}

struct StepLaunches {
    unsigned long long kernels = 0, libraryCalls = 0;
};

// One step of `s`, counting what it launched.
StepLaunches countedStep(EmulatedGpuStep& s, const RmsPropConfig& oc) {
    const unsigned long long k0 = tc::emu::launchStats().launches, l0 = libraryCalls();
    s.step(oc);
    return {tc::emu::launchStats().launches - k0, libraryCalls() - l0};
}

void comparePaths(int B, bool nhwc) {
    std::printf("2 training steps, batch %d, %s, augmentation and dropout on: fused path vs library path\n", B,
                nhwc ? "NHWC" : "NCHW");
    const int steps = 2;
    const Dataset data = cifarShaped(B, steps);
    NetConfig cfg;
    cfg.batch = B;
    const ParamTable table = makeParamTable(cfg);
    std::vector<float> w(table.totalFloats());
    glorotInit(table, w.data(), 2018);
    rng::Stream s(99);  // non-zero biases: a wrong bias index shows
    for (const ParamInfo& p : table.all())
        if (p.name == "bias")
            for (size_t i = 0; i < p.size; ++i) w[p.offset + i] = 0.2f * s.uniform() - 0.1f;
    const std::vector<float> zeros(w.size(), 0.0f);
    EmulatedGpuStep lib(cfg, nhwc, data, false), fused(cfg, nhwc, data, true);
    for (EmulatedGpuStep* e : {&lib, &fused}) {
        e->setState(w.data(), zeros.data());
        e->setIterations(0);
        e->begin(kSeed, AugmentParams{});
        e->startEpoch(kEpoch);
    }
    const RmsPropConfig oc = optimizer();
    for (int step = 0; step < steps; ++step) {
        const StepLaunches a = countedStep(lib, oc), b = countedStep(fused, oc);
        if (step > 0) continue;
        std::printf("  launches per step: library %llu kernels + %llu cuDNN/cuBLAS calls = %llu, fused %llu + %llu = %llu\n",
                    a.kernels, a.libraryCalls, a.kernels + a.libraryCalls, b.kernels, b.libraryCalls,
                    b.kernels + b.libraryCalls);
        expect(a.kernels == 17 && a.libraryCalls == 17, "library path: 17 kernels + 17 library calls per step");
        expect(b.kernels == 12 && b.libraryCalls == 0, "fused path: 12 kernels + 0 library calls per step");
        const std::vector<LayerOutput> outLib = lib.layerOutputs(), outFused = fused.layerOutputs();
        for (size_t i = 0; i < outLib.size(); ++i)
            check("step 1 output " + outLib[i].layer, outFused[i].values, outLib[i].values, kTolPaths);
        const std::vector<float> gLib = lib.canonical(lib.gradients()), gFused = fused.canonical(fused.gradients());
        for (const ParamInfo& p : table.all())
            check("step 1: d " + p.layer + "/" + p.name, slice(gFused, p), slice(gLib, p), kTolPaths);
    }
    const std::vector<float> wLib = lib.canonical(lib.weights()), wFused = fused.canonical(fused.weights());
    for (const ParamInfo& p : table.all())
        check("after 2 steps: " + p.layer + "/" + p.name, slice(wFused, p), slice(wLib, p), kTolPaths);
    check("RMSprop accumulators", fused.canonical(fused.accumulators()), lib.canonical(lib.accumulators()), kTolPaths);
    const tc::StepCounters &cl = lib.counters(), &cf = fused.counters();
    check("loss sums (window, this rank's window)", {float(cf.window[0]), float(cf.localWindow[0])},
          {float(cl.window[0]), float(cl.localWindow[0])}, kTolPaths);
    expect(cf.window[1] == cl.window[1] && cf.window[2] == cl.window[2] && cf.localWindow[1] == cl.localWindow[1],
           "correct predictions and image count");
    expect(cf.iteration == cl.iteration && cf.stepInEpoch == cl.stepInEpoch && cf.epoch == cl.epoch && cf.ticket == 0,
           "step counters");
}

// The fused path against the CPU backend (trainer_gpu_emulated_step's comparison).
void compareWithCpu(Dist& dist, int B, bool nhwc) {
    std::printf("2 training steps, batch %d, %s: fused path vs the CPU backend\n", B, nhwc ? "NHWC" : "NCHW");
    const int steps = 2;
    const Dataset data = cifarShaped(B, steps);
    BackendSetup s;
    s.net.batch = B, s.net.dropout = false;
    s.opt = optimizer();
    s.train = &data, s.test = &data, s.dist = &dist;
    const std::unique_ptr<Backend> cpu = makeCpuBackend(s);
    glorotInit(cpu->params(), cpu->weights(), 2018);
    EmulatedGpuStep gpu(s.net, nhwc, data, true);
    const std::vector<float> zeros(cpu->paramFloats(), 0.0f);
    gpu.setState(cpu->weights(), zeros.data());
    gpu.setIterations(0);
    gpu.begin(4321, AugmentParams{});
    gpu.startEpoch(1);
    cpu->pushState();
    cpu->setIterations(0);
    cpu->beginTraining(4321, AugmentParams{});
    cpu->startEpoch(1);
    const ParamTable& table = cpu->params();
    for (int step = 0; step < steps; ++step) {
        cpu->trainStep(step);
        gpu.step(s.opt);
        if (step > 0) continue;
        const std::vector<float> gCpu = cpu->averagedGradients(), gGpu = gpu.canonical(gpu.gradients());
        for (const ParamInfo& p : table.all())
            check("step 1: d " + p.layer + "/" + p.name, slice(gGpu, p), slice(gCpu, p), kTolGrad);
    }
    cpu->pullState();
    const std::vector<float> wGpu = gpu.canonical(gpu.weights());
    const std::vector<float> wCpu(cpu->weights(), cpu->weights() + table.totalFloats());
    for (const ParamInfo& p : table.all())
        check("after 2 steps: " + p.layer + "/" + p.name, slice(wGpu, p), slice(wCpu, p), kTolState);
    const StepSums sums = cpu->takeSums();
    const tc::StepCounters& c = gpu.counters();
    check("loss sum of the steps", {float(c.window[0])}, {float(sums.loss)}, kTolState);
    expect(c.window[1] == sums.correct && c.window[2] == sums.count && c.iteration == steps,
           "correct predictions, image count, iteration");
}

}  // namespace

int main(int argc, char** argv) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
        Dist dist(&argc, &argv);
        for (int B : {32, 7})
            for (bool nhwc : {true, false}) {
                testPoolKernels("conv2d_2 + max_pooling2d_1", 1, B, 32, 30, 30, nhwc, false);
                testPoolKernels("conv2d_4 + max_pooling2d_2", 2, B, 64, 13, 13, nhwc, false);
                testPoolKernels("conv2d_4 + max_pooling2d_2", 2, B, 64, 11, 11, nhwc, true);  // 28x28 images
            }
        for (bool nhwc : {true, false}) {
            testFirstLayer(32, 32, 32, 3, nhwc);
            testFirstLayer(7, 28, 28, 1, nhwc);
        }
        testOwnLayers(3, 32, 32, true);   // CIFAR: 30x30 and 13x13 (odd) before the poolings
        testOwnLayers(2, 32, 32, false);
        testOwnLayers(3, 28, 28, true);   // (Fashion-)MNIST: 26x26 and 11x11
        testHead(32, 32, 10, true);
        testHead(7, 7, 100, true);  // CIFAR-100: 2 threads per logit
        testHead(32, 29, 10, false);
        testHead(300, 290, 10, false);  // more rows than the loss kernel's 256 threads
        comparePaths(32, true);
        comparePaths(7, false);
        compareWithCpu(dist, 32, true);
        compareWithCpu(dist, 7, false);
    } catch (const std::exception& e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const tc::emu::LaunchStats s = tc::emu::launchStats();
    std::printf("emulated %llu launches, %llu blocks, %llu CUDA threads in %.1f s\n", s.launches, s.blocks, s.threads,
                seconds);
    const Tally& t = g_tally;
    std::printf(t.failures == 0 ? "all %d checks of the fused GPU path pass\n"
                                : "%d of %d check(s) of the fused GPU path FAILED\n",
                t.failures ? t.failures : t.checks, t.checks);
    return t.failures == 0 ? 0 : 1;
}
