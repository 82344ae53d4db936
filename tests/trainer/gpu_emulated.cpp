// The GPU backend's hand-written kernels (trainer/src/cuda/*.cu), run on the host through
// the CUDA emulation (trainer/src/cuda/host_emulation.h), against the CPU backend's layers
// on the shapes of the tutorial model (CIFAR-10 32x32x3, batch 32 and an odd last batch of
// 7, both GPU activation layouts), forward and backward:
//   bias + ReLU after each convolution and dense_1 (with dropout 0.5 there), and the
//     backward's ReLU/dropout mask and bias gradient, against oneDNN's layers with fused
//     bias + ReLU, the CPU's ReLU backward and its Dropout;
//   max pooling with dropout 0.25 and its backward through the previous ReLU (pool1 on
//     30x30, pool2 on 13x13 where the odd edge is dropped);
//   softmax cross-entropy with dense_2's bias, training and a padded evaluation batch;
//   RMSprop over the model's whole flat parameter buffer, 3 steps, and the step counters;
//   batch assembly with augmentation (rank 1 of 2) and evaluation batches with padding;
//   and the emulator itself: thread and block indices, __syncthreads with early returns,
//   the shuffled block order, launch statistics.
//
// Tolerance, max |emulated - cpu| / max |cpu| per tensor:
//   0 (bit for bit) where both sides do the same float operations: masks, max pooling,
//     dropout, batch assembly;
//   1e-5 where summation order or the rounding of a fused operation differs: the bias add
//     (oneDNN fuses it into the convolution), bias gradients (column sums), softmax;
//   1e-6 for RMSprop (element-wise; the CPU's vectorised loop may use FMA).
// A wrong index or layout gives errors of order 1.
//
// Every buffer a kernel sees lies between guard zones of 0xFF bytes (NaN as floats) and
// starts filled with them: a write outside a buffer fails the "writes stay inside" check,
// a read outside it or an element left unwritten brings a NaN that fails the comparison.
//
// Exit codes: 0 all passed, 1 a check failed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <string>
#include <vector>

#include "cuda/kernels.h"
#include "data/batcher.h"
#include "data/shuffle.h"
#include "model/conv.h"
#include "model/dense.h"
#include "model/elementwise.h"
#include "model/loss.h"
#include "model/params.h"
#include "model/pool.h"
#include "optim/rmsprop.h"
#include "util/rng.h"

#include "guarded_buffer.h"
#include "layer_compare.h"

using namespace td;
using namespace td::test;
namespace tc = td::cuda;

namespace {

rng::Stream g_rng(2018);
constexpr double kExact = 0.0, kTolSum = 1e-5, kTolRmsprop = 1e-6;

// The tutorial model's dropout and the position of the step whose masks are drawn.
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

// The CPU backend's sample positions and dropout key of layer `layer` for this step
// (Batcher::trainBatch, CpuBackend::startEpoch and Net::forward).
std::vector<uint64_t> positions(int batch) {
    std::vector<uint64_t> p(static_cast<size_t>(batch));
    for (int i = 0; i < batch; ++i) p[size_t(i)] = uint64_t((kStep * kWorkers + kRank) * batch + i);
    return p;
}
uint64_t cpuDropoutKey(unsigned layer) { return rng::key(rng::key(kSeed, rng::kDropout, uint64_t(kEpoch)), layer); }

Act plainAct(Ctx& ctx, const memory::dims& dims) {
    Act a;
    a.dims = dims;
    a.val = memory(plain(dims, dims.size() == 4 ? tag::nhwc : tag::nc), ctx.eng);
    a.grad = memory(plain(dims, dims.size() == 4 ? tag::nhwc : tag::nc), ctx.eng);
    return a;
}

// ---- bias + ReLU after a convolution, and its backward ----
// The "cuDNN output" the kernel adds the bias to is the CPU convolution without bias and
// ReLU; the reference is the CPU convolution with its fused bias + ReLU.
void testConvBias(const char* name, int B, int C, int H, int W, int O, bool same, bool nhwc) {
    std::printf("%s: bias + ReLU on conv %dx%dx%dx%d -> %d %s, %s\n", name, B, H, W, C, O, same ? "same" : "valid",
                nhwc ? "NHWC" : "NCHW");
    Ctx ctx;
    Act in = plainAct(ctx, {B, C, H, W});
    const std::vector<float> x = randomVec(size_t(B) * C * H * W, -1.0f, 1.0f);
    std::copy(x.begin(), x.end(), ptr(in.val));
    std::vector<float> w = randomVec(size_t(9) * C * O, -0.3f, 0.3f), b = randomVec(size_t(O), -0.2f, 0.2f);
    std::vector<float> zero(b.size(), 0.0f), dw(w.size()), db(b.size()), dw0(w.size()), db0(b.size());
    Conv2D::Config cc;
    cc.outChannels = O, cc.samePadding = same, cc.needDiffSrc = false, cc.srcAny = false;
    Conv2D conv(ctx, name, in, cc, w.data(), b.data(), dw.data(), db.data());
    cc.relu = false;
    Conv2D raw(ctx, name, in, cc, w.data(), zero.data(), dw0.data(), db0.data());
    conv.syncWeights(ctx);
    raw.syncWeights(ctx);
    conv.forward(ctx);
    raw.forward(ctx);
    const int OH = int(conv.out.dims[2]), OW = int(conv.out.dims[3]);
    const std::vector<float> yCpu = plainOf(ctx, conv.out.val, conv.out.dims);
    const std::vector<float> z = plainOf(ctx, raw.out.val, raw.out.dims);
    const std::vector<float> r = randomVec(yCpu.size(), -1.0f, 1.0f);
    setFromPlain(ctx, conv.out.grad, conv.out.dims, r);
    setFromPlain(ctx, raw.out.grad, raw.out.dims, r);
    conv.backward(ctx);  // ReLU mask applied to out.grad in place, then db
    raw.backward(ctx);   // db0: plain column sums
    const std::vector<float> gMasked = plainOf(ctx, conv.out.grad, conv.out.dims);

    const tc::Tensor4 t = tc::Tensor4::make(B, O, OH, OW, nhwc);
    Guarded<float> y(toLayout(z, B, O, OH, OW, nhwc)), bias(b);
    tc::biasActivation(y.get(), t, bias.get(), true, tc::DropoutArgs{}, nullptr);
    check("forward (bias + ReLU)", fromLayout(y.host(), B, O, OH, OW, nhwc), yCpu, kTolSum);

    // Backward from the CPU's forward output, so that both sides mask the same elements.
    Guarded<float> yRef(toLayout(yCpu, B, O, OH, OW, nhwc)), g(toLayout(r, B, O, OH, OW, nhwc)), dBias{size_t(O)};
    Guarded<float> partials(tc::ReduceScratch::partialsFloats(t));
    Guarded<unsigned int> ticket(std::vector<unsigned int>{0u});
    tc::maskBiasGrad(g.get(), yRef.get(), t, true, 1.0f, dBias.get(), {partials.get(), ticket.get()}, nullptr);
    check("backward: gradient through the ReLU", fromLayout(g.host(), B, O, OH, OW, nhwc), gMasked, kExact);
    check("backward: d bias", dBias.host(), db, kTolSum);
    // Without the mask (conv2d_2/4: the pooling's backward applies it): column sums only.
    Guarded<float> g2(toLayout(r, B, O, OH, OW, nhwc)), dBias2{size_t(O)};
    tc::maskBiasGrad(g2.get(), yRef.get(), t, false, 1.0f, dBias2.get(), {partials.get(), ticket.get()}, nullptr);
    check("backward unmasked: gradient unchanged", fromLayout(g2.host(), B, O, OH, OW, nhwc), r, kExact);
    check("backward unmasked: d bias", dBias2.host(), db0, kTolSum);
    expect(ticket.host()[0] == 0u, "reduction ticket left at zero");
    expectInside(y, bias, yRef, g, dBias, partials, ticket, g2, dBias2);
}

// ---- dense_1: bias + ReLU + dropout 0.5, and its backward ----
void testDenseBiasDropout(int B, int I, int U) {
    std::printf("dense_1: bias + ReLU + dropout 0.5 on %d x %d -> %d (epoch %d, step %lld, rank %d of %d)\n", B, I, U,
                kEpoch, (long long)kStep, kRank, kWorkers);
    Ctx ctx;
    Act in = plainAct(ctx, {B, I});
    const std::vector<float> x = randomVec(size_t(B) * I, 0.0f, 1.0f);
    std::copy(x.begin(), x.end(), ptr(in.val));
    std::vector<float> w = randomVec(size_t(I) * U, -0.05f, 0.05f), b = randomVec(size_t(U), -0.2f, 0.2f);
    std::vector<float> zero(b.size(), 0.0f), dw(w.size()), db(b.size()), dw0(w.size()), db0(b.size());
    Dense dense(ctx, "dense_1", in, U, true, false, w.data(), b.data(), dw.data(), db.data());
    Dense raw(ctx, "dense_1", in, U, false, false, w.data(), zero.data(), dw0.data(), db0.data());
    dense.syncWeights(ctx);
    raw.syncWeights(ctx);
    dense.forward(ctx);
    raw.forward(ctx);
    // As Net::forward: dropout in place on dense_1's output, masks keyed by the step.
    Dropout drop(dense.out.val, 0.5f, B);
    const std::vector<uint64_t> pos = positions(B);
    drop.forward(dense.out.val, cpuDropoutKey(3), pos.data());
    const std::vector<float> yCpu = plainOf(ctx, dense.out.val, dense.out.dims);
    const std::vector<float> z = plainOf(ctx, raw.out.val, raw.out.dims);
    const std::vector<float> r = randomVec(yCpu.size(), -1.0f, 1.0f);
    setFromPlain(ctx, dense.out.grad, dense.out.dims, r);
    drop.backward(dense.out.grad);
    dense.backward(ctx);
    const std::vector<float> gMasked = plainOf(ctx, dense.out.grad, dense.out.dims);

    Guarded<tc::StepCounters> counters(std::vector<tc::StepCounters>{countersAt(kEpoch, kStep)});
    const tc::DropoutArgs dropArgs = tc::DropoutArgs::make(0.5f, 3, kSeed, B, kRank, kWorkers, counters.get());
    const tc::Tensor4 t = tc::Tensor4::matrix(B, U);
    Guarded<float> y(z), bias(b);
    tc::biasActivation(y.get(), t, bias.get(), true, dropArgs, nullptr);
    check("forward (bias + ReLU + dropout)", y.host(), yCpu, kTolSum);
    size_t kept = 0;
    for (float v : y.host()) kept += v != 0.0f;
    std::printf("  %zu of %zu outputs nonzero\n", kept, yCpu.size());

    Guarded<float> yRef(yCpu), g(r), dBias{size_t(U)}, partials(tc::ReduceScratch::partialsFloats(t));
    Guarded<unsigned int> ticket(std::vector<unsigned int>{0u});
    tc::maskBiasGrad(g.get(), yRef.get(), t, true, dropArgs.scale, dBias.get(), {partials.get(), ticket.get()},
                     nullptr);
    check("backward: gradient through dropout and ReLU", g.host(), gMasked, kExact);
    check("backward: d bias", dBias.host(), db, kTolSum);
    expectInside(counters, y, bias, yRef, g, dBias, partials, ticket);
}

// ---- max pooling + dropout 0.25, and its backward through the previous ReLU ----
// ties: the inputs take 3 values only, so most windows hold equal maxima: the gradient must
// go to the same element as oneDNN's (its first maximum in row-major order).
void testPool(const char* name, unsigned layer, int B, int C, int H, int W, bool nhwc, bool ties = false) {
    std::printf("%s: max-pool 2x2 + dropout 0.25 on %dx%dx%dx%d, %s%s\n", name, B, H, W, C, nhwc ? "NHWC" : "NCHW",
                ties ? ", inputs full of ties" : "");
    Ctx ctx;
    Act in = plainAct(ctx, {B, C, H, W});
    std::vector<float> x = randomVec(size_t(B) * C * H * W, -1.0f, 1.0f);
    for (float& v : x) v = std::max(v, 0.0f);  // a ReLU's output: all-zero windows included
    if (ties)
        for (float& v : x) v = std::floor(v * 2.5f) * 0.5f;  // 0, 0.5 or 1
    std::copy(x.begin(), x.end(), ptr(in.val));
    MaxPool2D pool(ctx, name, in);
    pool.forward(ctx);
    const int PH = H / 2, PW = W / 2;
    Act pooled = plainAct(ctx, {B, C, PH, PW});  // dropout on plain NHWC: the GPU's element order
    const std::vector<float> p = plainOf(ctx, pool.out.val, pool.out.dims);
    std::copy(p.begin(), p.end(), ptr(pooled.val));
    Dropout drop(pooled.val, 0.25f, B);
    const std::vector<uint64_t> pos = positions(B);
    drop.forward(pooled.val, cpuDropoutKey(layer), pos.data());
    const std::vector<float> yCpu(ptr(pooled.val), ptr(pooled.val) + p.size());
    const std::vector<float> r = randomVec(p.size(), -1.0f, 1.0f);
    std::copy(r.begin(), r.end(), ptr(pooled.grad));
    drop.backward(pooled.grad);
    setFromPlain(ctx, pool.out.grad, pool.out.dims, std::vector<float>(ptr(pooled.grad), ptr(pooled.grad) + r.size()));
    pool.backward(ctx);
    reluBackward(in.val, in.grad);  // the preceding convolution's ReLU
    const std::vector<float> dxCpu(ptr(in.grad), ptr(in.grad) + x.size());

    Guarded<tc::StepCounters> counters(std::vector<tc::StepCounters>{countersAt(kEpoch, kStep)});
    const tc::DropoutArgs dropArgs = tc::DropoutArgs::make(0.25f, layer, kSeed, B, kRank, kWorkers, counters.get());
    const tc::Tensor4 xt = tc::Tensor4::make(B, C, H, W, nhwc), yt = tc::Tensor4::make(B, C, PH, PW, nhwc);
    Guarded<float> dx(toLayout(x, B, C, H, W, nhwc)), y{size_t(yt.size())}, gy(toLayout(r, B, C, PH, PW, nhwc));
    Guarded<float> gx(x.size());
    tc::maxPoolForward(dx.get(), xt, y.get(), yt, dropArgs, nullptr);
    check("forward (max + dropout)", fromLayout(y.host(), B, C, PH, PW, nhwc), yCpu, kExact);
    tc::maxPoolBackward(dx.get(), xt, y.get(), gy.get(), yt, gx.get(), dropArgs.scale, nullptr);
    check("backward (dropout, max, ReLU)", fromLayout(gx.host(), B, C, H, W, nhwc), dxCpu, kExact);
    expectInside(counters, dx, y, gy, gx);
}

// ---- softmax cross-entropy with dense_2's bias ----
void testSoftmax(int B, int valid) {
    const int I = 512, K = 10;
    std::printf("softmax cross-entropy after dense_2 (%d -> %d), batch %d, %d valid\n", I, K, B, valid);
    Ctx ctx;
    Act in = plainAct(ctx, {B, I});
    const std::vector<float> x = randomVec(size_t(B) * I, 0.0f, 2.0f);
    std::copy(x.begin(), x.end(), ptr(in.val));
    std::vector<float> w = randomVec(size_t(I) * K, -0.1f, 0.1f), b = randomVec(size_t(K), -1.0f, 1.0f);
    std::vector<float> zero(b.size(), 0.0f), dw(w.size()), db(b.size()), dw0(w.size()), db0(b.size());
    Dense dense(ctx, "dense_2", in, K, false, false, w.data(), b.data(), dw.data(), db.data());
    Dense raw(ctx, "dense_2", in, K, false, false, w.data(), zero.data(), dw0.data(), db0.data());
    dense.syncWeights(ctx);
    raw.syncWeights(ctx);
    dense.forward(ctx);
    raw.forward(ctx);
    const std::vector<float> zb = plainOf(ctx, dense.out.val, dense.out.dims);
    std::vector<int32_t> labels(static_cast<size_t>(B));
    for (int32_t& v : labels) v = int32_t(g_rng.below(K));
    std::vector<float> p(zb.size()), grad(zb.size());
    const LossResult ref = softmaxCrossEntropy(zb.data(), labels.data(), B, valid, K, p.data(), grad.data());
    setFromPlain(ctx, dense.out.grad, dense.out.dims, grad);
    dense.backward(ctx);  // db: dense_2's bias gradient

    Guarded<float> logits(plainOf(ctx, raw.out.val, raw.out.dims)), bias(b), probs(zb.size()), dz(zb.size());
    Guarded<float> dBias{size_t(K)}, extras(3);
    Guarded<int32_t> y(labels);
    Guarded<double> accum(std::vector<double>{0.5, 1.0});
    tc::LossArgs a;
    a.logits = logits.get(), a.bias = bias.get(), a.labels = y.get();
    a.batch = B, a.valid = valid, a.classes = K;
    a.probs = probs.get(), a.grad = dz.get(), a.dbias = dBias.get(), a.extras = extras.get(), a.accum = accum.get();
    tc::softmaxLoss(a, nullptr);
    check("probabilities", probs.host(), p, kTolSum);
    check("d logits", dz.host(), grad, kTolSum);
    check("d bias", dBias.host(), db, kTolSum);
    const std::vector<float> ex = extras.host();
    const std::vector<double> acc = accum.host();
    check("loss sum (step extras, evaluation sum)", {ex[0], float(acc[0] - 0.5)},
          {float(ref.lossSum), float(ref.lossSum)}, kTolSum);
    expect(ex[1] == float(ref.correct) && acc[1] - 1.0 == ref.correct && ex[2] == float(valid),
           "correct count and image count");
    expectInside(logits, bias, probs, dz, dBias, extras, y, accum);
}

// ---- RMSprop over the model's flat parameter buffer ----
void testRmsprop(const NetConfig& cfg) {
    const ParamTable table = makeParamTable(cfg);
    const size_t n = table.totalFloats();
    std::printf("RMSprop over the whole parameter buffer (%zu floats): 3 steps from iteration 5, grad scale 0.5\n", n);
    RmsPropConfig oc;
    oc.lr = 1e-3, oc.decay = 1e-2;
    RmsProp opt(oc, n);
    opt.setIterations(5);
    std::vector<float> p = randomVec(n, -1.0f, 1.0f);
    Guarded<float> dP(p), dA(std::vector<float>(n, 0.0f)), dG(n + 3);
    Guarded<tc::StepCounters> counters(std::vector<tc::StepCounters>{countersAt(kEpoch, 0)});
    tc::setIteration(counters.get(), 5, nullptr);
    tc::setEpoch(counters.get(), kEpoch + 1, nullptr);
    double window[3] = {0, 0, 0};
    for (int step = 0; step < 3; ++step) {
        std::vector<float> gr = randomVec(n + 3, -0.01f, 0.01f);
        gr[n] = 2.5f, gr[n + 1] = 7.0f, gr[n + 2] = 16.0f;  // the step's sums (rank averages)
        for (int k = 0; k < 3; ++k) window[k] += double(gr[n + size_t(k)]) * 2.0;
        opt.step(p.data(), gr.data(), 0.5f);
        dG.upload(gr);
        tc::RmspropArgs a;
        a.params = dP.get(), a.accum = dA.get(), a.grads = dG.get(), a.n = n, a.gradScale = 0.5f;
        a.lr = oc.lr, a.decay = oc.decay, a.rho = oc.rho, a.epsilon = oc.epsilon;
        a.counters = counters.get();
        a.extrasScale = 2.0;
        tc::rmspropStep(a, nullptr);
    }
    check("parameters", dP.host(), p, kTolRmsprop);
    check("accumulators", dA.host(), std::vector<float>(opt.accumulators(), opt.accumulators() + n), kTolRmsprop);
    const tc::StepCounters c = counters.host()[0];
    expect(c.iteration == 8 && c.stepInEpoch == 3 && c.epoch == kEpoch + 1 && c.ticket == 0,
           "step counters: iteration 5 + 3, 3 steps into the epoch");
    expect(c.window[0] == window[0] && c.window[1] == window[1] && c.window[2] == window[2],
           "metric sums added to the window (x workers)");
    expectInside(dP, dA, dG, counters);
}

// ---- batch assembly ----
void testAssemble(const NetConfig& cfg, int B, bool nhwc) {
    std::printf("batch assembly %dx%dx%d, batch %d, %s: augmented (rank %d of %d) and evaluation, bit for bit\n", cfg.h,
                cfg.w, cfg.c, B, nhwc ? "NHWC" : "NCHW", kRank, kWorkers);
    Dataset d;
    d.n = int64_t(kWorkers) * B * (kStep + 1) + 3;
    d.h = cfg.h, d.w = cfg.w, d.c = cfg.c;
    d.pixels.resize(size_t(d.n) * d.imageSize());
    d.labels.resize(size_t(d.n));
    for (uint8_t& v : d.pixels) v = uint8_t(g_rng.below(256));
    for (uint8_t& v : d.labels) v = uint8_t(g_rng.below(10));
    AugmentParams aug;
    Batcher batcher(d, B, kRank, kWorkers, kSeed, aug);
    batcher.startEpoch(kEpoch);
    std::vector<float> xCpu(size_t(B) * d.imageSize());
    std::vector<int32_t> yCpu(static_cast<size_t>(B));
    std::vector<uint64_t> pos(static_cast<size_t>(B));
    batcher.trainBatch(kStep, xCpu.data(), yCpu.data(), pos.data());
    expect(pos == positions(B), "the CPU batcher's positions are those the dropout tests use");

    std::vector<int32_t> perm;
    epochPermutation(d.n, kSeed, kEpoch, perm);
    Guarded<uint8_t> pixels(d.pixels), labels(d.labels);
    Guarded<int32_t> dPerm(perm), outLabels{size_t(B)};
    Guarded<tc::StepCounters> counters(std::vector<tc::StepCounters>{countersAt(kEpoch, kStep)});
    Guarded<float> out(xCpu.size());
    tc::AssembleArgs a;
    a.pixels = pixels.get(), a.labels = labels.get(), a.h = d.h, a.w = d.w, a.c = d.c, a.batch = B;
    a.perm = dPerm.get(), a.counters = counters.get(), a.rank = kRank, a.workers = kWorkers;
    a.augment = true, a.widthShift = aug.widthShift, a.heightShift = aug.heightShift, a.flip = aug.horizontalFlip;
    a.seed = kSeed;
    a.out = out.get(), a.shape = tc::Tensor4::make(B, d.c, d.h, d.w, nhwc), a.outLabels = outLabels.get();
    tc::assembleBatch(a, nullptr);
    check("augmented images", fromLayout(out.host(), B, d.c, d.h, d.w, nhwc), xCpu, kExact);
    expect(outLabels.host() == yCpu, "labels");

    // The last evaluation batch: `valid` images, the rest zero padding.
    const int valid = B > 4 ? B - 4 : 1;
    const int64_t first = d.n - valid;
    plainBatch(d, first, valid, B, xCpu.data(), yCpu.data());
    Guarded<float> evalOut(xCpu.size());
    Guarded<int32_t> evalLabels{size_t(B)};
    tc::AssembleArgs e = a;
    e.perm = nullptr, e.counters = nullptr, e.augment = false, e.first = first, e.valid = valid;
    e.out = evalOut.get(), e.outLabels = evalLabels.get();
    tc::assembleBatch(e, nullptr);
    check("evaluation batch (" + std::to_string(valid) + " images + padding)",
          fromLayout(evalOut.host(), B, d.c, d.h, d.w, nhwc), xCpu, kExact);
    expect(evalLabels.host() == yCpu, "evaluation labels (padding 0)");
    expectInside(pixels, labels, dPerm, outLabels, counters, out, evalOut, evalLabels);
}

// The emulator itself (cuda/host_emulation.h), on what the kernels rely on: every thread
// sees its own threadIdx (x, y) and blockIdx, __shared__ is per block, __syncthreads()
// waits for all threads that have not returned (some return early, before the first
// barrier: it must not hang), blocks run in a shuffled order, and the launch statistics.
// Threads 0..23 of a 16 x 4 block return at once, threads 24..63 stay to the end (so the
// emulator's fibers are passed on by ending threads before and after waiting ones).
constexpr unsigned kEmuGone = 24, kEmuLive = 40;
__global__ void emuBarrierKernel(int* out) {
    __shared__ int slot[kEmuLive];
    const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
    int* mine = out + (blockIdx.y * gridDim.x + blockIdx.x) * 64 + t;
    if (t < kEmuGone) {
        *mine = -1;
        return;
    }
    const unsigned i = t - kEmuGone;
    slot[i] = int(blockIdx.x * 1000 + blockIdx.y * 100 + t);
    __syncthreads();
    // The neighbour's value: written before the barrier by another thread of this block.
    const int neighbour = slot[(i + 1) % kEmuLive];
    __syncthreads();
    slot[i] = neighbour;  // overwritten only once every thread has read its neighbour
    __syncthreads();
    *mine = slot[(i + kEmuLive - 1) % kEmuLive];
}
__global__ void emuOrderKernel(int* counter, int* order) {
    if (threadIdx.x == 0) order[atomicAdd(counter, 1)] = int(blockIdx.x);
}

void testEmulator() {
    std::printf("emulator: threads, barriers with early returns, block order, statistics\n");
    const tc::emu::LaunchStats before = tc::emu::launchStats();
    const dim3 grid(3, 2), block(16, 4);
    std::vector<int> out(3 * 2 * 64, 7);
    tc::emu::launch(emuBarrierKernel, grid, block, nullptr, out.data());
    bool right = true;
    for (unsigned by = 0; by < 2; ++by)
        for (unsigned bx = 0; bx < 3; ++bx)
            for (unsigned t = 0; t < 64; ++t) {
                const int want = t < kEmuGone ? -1 : int(bx * 1000 + by * 100 + t);
                right = right && out[(by * 3 + bx) * 64 + t] == want;
            }
    expect(right, "each thread's value went round the block through __shared__ and 3 barriers");

    const int blocks = 50;
    int counter = 0;
    std::vector<int> order(blocks, -1);
    tc::emu::launch(emuOrderKernel, dim3(blocks), dim3(32), nullptr, &counter, order.data());
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    bool permutation = counter == blocks;
    bool shuffled = false;
    for (int i = 0; i < blocks; ++i) permutation = permutation && sorted[i] == i, shuffled = shuffled || order[i] != i;
    expect(permutation && shuffled, "every block ran once, in a shuffled order");

    const tc::emu::LaunchStats after = tc::emu::launchStats();
    expect(after.launches - before.launches == 2 && after.blocks - before.blocks == 6 + blocks &&
               after.threads - before.threads == 6 * 64 + blocks * 32,
           "launch statistics count launches, blocks and threads");
}

// A launch configuration CUDA rejects is reported like the runtime reports it.
void testBadLaunch() {
    std::printf("launch configuration errors\n");
    Guarded<float> y(4), bias(std::vector<float>(1, 0.0f));
    bool threw = false;
    try {
        tc::biasActivation(y.get(), tc::Tensor4::make(1, 1, 2, 2, true), bias.get(), true, tc::DropoutArgs{}, nullptr);
        // Fine; now one CUDA rejects: 2^39 elements need 2^31 blocks of 256, past grid.x's limit.
        tc::Tensor4 t = tc::Tensor4::matrix(1, 1);
        t.n = 1 << 23, t.c = 1 << 16;
        tc::biasActivation(y.get(), t, bias.get(), true, tc::DropoutArgs{}, nullptr);
    } catch (const RuntimeError& e) {
        threw = std::string(e.what()).find("cudaErrorInvalidConfiguration") != std::string::npos;
        std::printf("  (%s)\n", e.what());
    }
    expect(threw, "a grid past CUDA's limits fails the launch check");
}

}  // namespace

int main() {
    const auto t0 = std::chrono::steady_clock::now();
    try {
        NetConfig cifar;  // the tutorial's model on CIFAR-10
        for (int B : {32, 7}) {
            for (bool nhwc : {true, false}) {
                testConvBias("conv2d_1", B, 3, 32, 32, 32, true, nhwc);
                testConvBias("conv2d_2", B, 32, 32, 32, 32, false, nhwc);
                testPool("max_pooling2d_1", 1, B, 32, 30, 30, nhwc);
                testConvBias("conv2d_3", B, 32, 15, 15, 64, true, nhwc);
                testConvBias("conv2d_4", B, 64, 15, 15, 64, false, nhwc);
                testPool("max_pooling2d_2", 2, B, 64, 13, 13, nhwc);
                testPool("max_pooling2d_1", 1, B, 32, 26, 26, nhwc, true);  // 28x28 images
                testPool("max_pooling2d_2", 2, B, 64, 11, 11, nhwc, true);
                testAssemble(cifar, B, nhwc);
            }
            testDenseBiasDropout(B, 6 * 6 * 64, 512);
            testSoftmax(B, B);
        }
        testSoftmax(32, 7);  // a padded evaluation batch
        testRmsprop(cifar);
        testBadLaunch();
        testEmulator();
    } catch (const std::exception& e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const tc::emu::LaunchStats s = tc::emu::launchStats();
    std::printf("emulated %llu launches, %llu blocks, %llu CUDA threads in %.1f s\n", s.launches, s.blocks, s.threads,
                seconds);
    const Tally& t = g_tally;
    std::printf(t.failures == 0 ? "all %d emulated-kernel checks match the CPU backend\n"
                                : "%d of %d emulated-kernel check(s) FAILED\n",
                t.failures ? t.failures : t.checks, t.checks);
    return t.failures == 0 ? 0 : 1;
}
