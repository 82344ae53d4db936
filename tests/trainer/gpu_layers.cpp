// The GPU backend against the CPU backend, layer by layer and for the whole network:
// forward outputs and backward gradients (inputs, weights, biases) of each convolution,
// dense layer and max-pooling layer on the same random data, the softmax cross-entropy,
// the RMSprop kernel, batch assembly with augmentation (bit for bit), dropout's mask
// statistics, and the whole model's loss and gradients. Both GPU activation layouts.
//
// Tolerance: max |gpu - cpu| / max |cpu| per tensor, 1e-4 in FP32 (TF32 off: cuDNN with
// CUDNN_FMA_MATH, cuBLAS with CUBLAS_COMPUTE_32F; the differences are summation order).
// TF32 (10-bit mantissas for the operands of every product, FP32 sums) is modelled, not
// waved through: a single layer's data, weights and incoming gradient are rounded to TF32
// before either side computes, so TF32 rounds nothing more and the FP32 reference is the
// exact answer up to the TF32 algorithms' internal rounding (tolerance 5e-3). The whole
// network rounds its activations inside; there each gradient may differ from the FP32
// reference by what TF32 rounding does to it on the CPU: 3x the difference between the CPU
// from the original and from the TF32-rounded inputs and weights (at least 5e-3). A wrong
// layout or index gives errors of order 1 either way.
// RMSprop: 1e-5. Batch assembly: exact.
// The fused kernels (--gpu-kernels fused, cuda/fused.cu) against the library kernels they
// replace, on the GPU: bias + ReLU + pooling + dropout and the pooling's backward with the
// bias gradient bit for bit; the head kernel (dense_1's activation, dense_2, the loss and
// their backward) against biasActivation + cuBLAS + softmaxLoss + cuBLAS + maskBiasGrad:
// dense_1's activation bit for bit, the rest within 1e-5 (cuBLAS sums in another order);
// the fused path's own conv2d_1 against assembleBatch + cuDNN + biasActivation (the batch
// bit for bit, the rest 1e-5) and its backward against maskBiasGrad (bias gradient bit for
// bit) + cuDNN's backward-filter (1e-5); its own conv2d_2..4 and dense_1 (implicit GEMMs)
// against cuDNN / cuBLAS (1e-5) with their epilogues bit for bit the library kernels' on the
// same sums; and the whole network on the fused path against the CPU as above.
//
// Exit codes: 0 all passed, 1 a check failed, 77 skipped (no usable NVIDIA GPU).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cuda/context.h"
#include "cuda/conv.h"
#include "cuda/cuda_check.h"
#include "cuda/dense.h"
#include "cuda/device.h"
#include "cuda/gpu_net.h"
#include "cuda/kernels.h"
#include "cuda/layout.h"
#include "cuda/memory.h"
#include "data/batcher.h"
#include "data/shuffle.h"
#include "model/conv.h"
#include "model/dense.h"
#include "model/loss.h"
#include "model/net.h"
#include "model/pool.h"
#include "optim/rmsprop.h"
#include "util/rng.h"

#include "layer_compare.h"

using namespace td;
using namespace td::test;
namespace tc = td::cuda;

namespace {

rng::Stream g_rng(4242);
constexpr double kTolFp32 = 1e-4, kTolTf32 = 5e-3;

// x rounded to TF32 (10 explicit mantissa bits, to nearest, ties away from zero as the
// tensor cores' conversion does).
float toTf32(float x) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) == 0x7f800000u) return x;  // inf, nan
    u = (u + 0x1000u) & 0xffffe000u;
    std::memcpy(&x, &u, 4);
    return x;
}
void roundTf32(std::vector<float>& v, bool tf32) {
    if (tf32)
        for (float& x : v) x = toTf32(x);
}

std::vector<float> randomVec(size_t n, float lo, float hi) {
    std::vector<float> v(n);
    for (float& x : v) x = lo + (hi - lo) * g_rng.uniform();
    return v;
}

template <typename T>
tc::DeviceBuffer<T> upload(const std::vector<T>& v) {
    tc::DeviceBuffer<T> b(v.size());
    b.upload(v.data(), v.size());
    return b;
}

struct Gpu {
    tc::GpuContext ctx{false};
    cudaStream_t s() { return ctx.main(); }
    void sync() { CUDA_CHECK(cudaStreamSynchronize(ctx.main())); }
};

void testConv(Gpu& g, int N, int C, int H, int W, int O, bool same, bool needDx, bool nhwc, bool tf32) {
    const double tol = tf32 ? kTolTf32 : kTolFp32;
    std::printf("conv %dx%dx%dx%d -> %d %s, %s, %s\n", N, H, W, C, O, same ? "same" : "valid", nhwc ? "NHWC" : "NCHW",
                tf32 ? "TF32" : "FP32");
    Ctx cpu;
    Act in;
    in.dims = {N, C, H, W};
    in.val = memory(plain(in.dims, tag::nhwc), cpu.eng);
    in.grad = memory(plain(in.dims, tag::nhwc), cpu.eng);
    std::vector<float> x = randomVec(size_t(N) * C * H * W, -1.0f, 1.0f);
    roundTf32(x, tf32);
    std::copy(x.begin(), x.end(), ptr(in.val));
    std::vector<float> w = randomVec(size_t(9) * C * O, -0.3f, 0.3f), b = randomVec(size_t(O), -0.2f, 0.2f);
    roundTf32(w, tf32);
    std::vector<float> dw(w.size()), db(b.size());
    Conv2D::Config cc;
    cc.outChannels = O;
    cc.samePadding = same;
    cc.relu = true;
    cc.needDiffSrc = needDx;
    cc.srcAny = false;
    Conv2D conv(cpu, "conv", in, cc, w.data(), b.data(), dw.data(), db.data());
    conv.syncWeights(cpu);
    conv.forward(cpu);
    const std::vector<float> yCpu = plainOf(cpu, conv.out.val, conv.out.dims);
    const int OH = int(conv.out.dims[2]), OW = int(conv.out.dims[3]);
    std::vector<float> r = randomVec(yCpu.size(), -1.0f, 1.0f);
    roundTf32(r, tf32);
    setFromPlain(cpu, conv.out.grad, conv.out.dims, r);
    conv.backward(cpu);
    const std::vector<float> dxCpu(ptr(in.grad), ptr(in.grad) + x.size());

    tc::CudnnConv::Config gc;
    gc.batch = N, gc.inC = C, gc.h = H, gc.w = W, gc.outC = O, gc.same = same, gc.nhwc = nhwc, gc.tf32 = tf32;
    gc.needDx = needDx;
    tc::CudnnConv gconv(gc);
    auto dX = upload(toLayout(x, N, C, H, W, nhwc));
    auto dW = upload(filterToGpu(w, C, O, nhwc));
    auto dB = upload(b);
    tc::DeviceBuffer<float> dY(yCpu.size()), dGy(yCpu.size()), dGx(x.size()), dDw(w.size()), dDb(b.size());
    tc::DeviceBuffer<char> scratch(size_t(64) << 20);
    gconv.selectAlgorithms(g.ctx.dnnMain(), g.ctx.dnnMain(), dX.get(), dW.get(), dY.get(), dGy.get(), dGx.get(),
                           dDw.get(), scratch.get(), scratch.bytes());
    std::printf("  cuDNN: %s\n", gconv.algorithms().c_str());
    tc::DeviceBuffer<char> ws(std::max<size_t>({gconv.forwardWorkspace(), gconv.backwardFilterWorkspace(), 256}));
    const tc::Tensor4 yt = gconv.outShape();
    gconv.forward(g.ctx.dnnMain(), dX.get(), dW.get(), dY.get(), ws.get(), ws.bytes());
    tc::biasActivation(dY.get(), yt, dB.get(), true, tc::DropoutArgs{}, g.s());
    g.sync();
    check("forward (conv + bias + ReLU)", fromLayout(dY.toHost(), N, O, OH, OW, nhwc), yCpu, tol);

    dGy.upload(toLayout(r, N, O, OH, OW, nhwc).data(), r.size());
    tc::DeviceBuffer<float> partials(tc::ReduceScratch::partialsFloats(yt));
    tc::DeviceBuffer<unsigned int> ticket(1);
    tc::maskBiasGrad(dGy.get(), dY.get(), yt, true, 1.0f, dDb.get(), {partials.get(), ticket.get()}, g.s());
    gconv.backwardFilter(g.ctx.dnnMain(), dX.get(), dGy.get(), dDw.get(), ws.get(), ws.bytes());
    if (needDx) gconv.backwardData(g.ctx.dnnMain(), dW.get(), dGy.get(), dGx.get(), ws.get(), ws.bytes());
    g.sync();
    check("d kernel", filterFromGpu(dDw.toHost(), C, O, nhwc), dw, tol);
    check("d bias", dDb.toHost(), db, tol);
    if (needDx) check("d input", fromLayout(dGx.toHost(), N, C, H, W, nhwc), dxCpu, tol);
}

void testDense(Gpu& g, int N, int I, int O, bool relu, bool tf32) {
    const double tol = tf32 ? kTolTf32 : kTolFp32;
    std::printf("dense %d x %d -> %d%s, %s\n", N, I, O, relu ? " + ReLU" : "", tf32 ? "TF32" : "FP32");
    Ctx cpu;
    Act in;
    in.dims = {N, I};
    in.val = memory(plain(in.dims, tag::nc), cpu.eng);
    in.grad = memory(plain(in.dims, tag::nc), cpu.eng);
    std::vector<float> x = randomVec(size_t(N) * I, -1.0f, 1.0f);
    roundTf32(x, tf32);
    std::copy(x.begin(), x.end(), ptr(in.val));
    std::vector<float> w = randomVec(size_t(I) * O, -0.1f, 0.1f), b = randomVec(size_t(O), -0.2f, 0.2f);
    roundTf32(w, tf32);
    std::vector<float> dw(w.size()), db(b.size());
    Dense d(cpu, "dense", in, O, relu, true, w.data(), b.data(), dw.data(), db.data());
    d.syncWeights(cpu);
    d.forward(cpu);
    const std::vector<float> yCpu = plainOf(cpu, d.out.val, d.out.dims);
    std::vector<float> r = randomVec(yCpu.size(), -1.0f, 1.0f);
    roundTf32(r, tf32);
    setFromPlain(cpu, d.out.grad, d.out.dims, r);
    d.backward(cpu);
    const std::vector<float> dxCpu(ptr(in.grad), ptr(in.grad) + x.size());

    tc::CublasDense gd(N, I, O, tf32);
    auto dX = upload(x), dW = upload(w), dB = upload(b), dGy = upload(r);
    tc::DeviceBuffer<float> dY(yCpu.size()), dGx(x.size()), dDw(w.size()), dDb(b.size());
    const tc::Tensor4 t = tc::Tensor4::matrix(N, O);
    gd.forward(g.ctx.blasMain(), dX.get(), dW.get(), dY.get());
    tc::biasActivation(dY.get(), t, dB.get(), relu, tc::DropoutArgs{}, g.s());
    g.sync();
    check("forward (GEMM + bias" + std::string(relu ? " + ReLU)" : ")"), dY.toHost(), yCpu, tol);
    tc::DeviceBuffer<float> partials(tc::ReduceScratch::partialsFloats(t));
    tc::DeviceBuffer<unsigned int> ticket(1);
    tc::maskBiasGrad(dGy.get(), dY.get(), t, relu, 1.0f, dDb.get(), {partials.get(), ticket.get()}, g.s());
    gd.backwardWeights(g.ctx.blasMain(), dX.get(), dGy.get(), dDw.get());
    gd.backwardData(g.ctx.blasMain(), dW.get(), dGy.get(), dGx.get());
    g.sync();
    check("d kernel", dDw.toHost(), dw, tol);
    check("d bias", dDb.toHost(), db, tol);
    check("d input", dGx.toHost(), dxCpu, tol);
}

void testPool(Gpu& g, int N, int C, int H, int W, bool nhwc) {
    std::printf("max-pool 2x2 on %dx%dx%dx%d, %s\n", N, H, W, C, nhwc ? "NHWC" : "NCHW");
    Ctx cpu;
    Act in;
    in.dims = {N, C, H, W};
    in.val = memory(plain(in.dims, tag::nhwc), cpu.eng);
    in.grad = memory(plain(in.dims, tag::nhwc), cpu.eng);
    const size_t n = size_t(N) * C * H * W;
    std::vector<float> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = 0.001f + 0.01f * float((i * 7919) % n);  // distinct, positive
    std::copy(x.begin(), x.end(), ptr(in.val));
    MaxPool2D pool(cpu, "pool", in);
    pool.forward(cpu);
    const std::vector<float> yCpu = plainOf(cpu, pool.out.val, pool.out.dims);
    const std::vector<float> r = randomVec(yCpu.size(), -1.0f, 1.0f);
    setFromPlain(cpu, pool.out.grad, pool.out.dims, r);
    pool.backward(cpu);
    const std::vector<float> dxCpu(ptr(in.grad), ptr(in.grad) + n);

    const tc::Tensor4 xt = tc::Tensor4::make(N, C, H, W, nhwc), yt = tc::Tensor4::make(N, C, H / 2, W / 2, nhwc);
    auto dX = upload(toLayout(x, N, C, H, W, nhwc));
    auto dGy = upload(toLayout(r, N, C, H / 2, W / 2, nhwc));
    tc::DeviceBuffer<float> dY(yCpu.size()), dGx(n);
    tc::maxPoolForward(dX.get(), xt, dY.get(), yt, tc::DropoutArgs{}, g.s());
    tc::maxPoolBackward(dX.get(), xt, dY.get(), dGy.get(), yt, dGx.get(), 1.0f, g.s());
    g.sync();
    check("forward", fromLayout(dY.toHost(), N, C, H / 2, W / 2, nhwc), yCpu, 0.0);
    check("d input", fromLayout(dGx.toHost(), N, C, H, W, nhwc), dxCpu, 0.0);
}

void testSoftmax(Gpu& g) {
    std::printf("softmax cross-entropy (+ dense_2 bias)\n");
    const int B = 37, K = 10, valid = 33;
    std::vector<float> z = randomVec(size_t(B) * K, -4.0f, 4.0f), bias = randomVec(K, -1.0f, 1.0f);
    std::vector<int32_t> y(B);
    for (int32_t& v : y) v = int32_t(g_rng.below(K));
    std::vector<float> zb(z.size()), p(z.size()), grad(z.size());
    for (int i = 0; i < B; ++i)
        for (int k = 0; k < K; ++k) zb[size_t(i) * K + k] = z[size_t(i) * K + k] + bias[size_t(k)];
    const LossResult r = softmaxCrossEntropy(zb.data(), y.data(), B, valid, K, p.data(), grad.data());
    std::vector<float> dbCpu(K, 0.0f);
    for (int i = 0; i < B; ++i)
        for (int k = 0; k < K; ++k) dbCpu[size_t(k)] += grad[size_t(i) * K + k];

    auto dZ = upload(z), dBias = upload(bias);
    auto dY = upload(y);
    tc::DeviceBuffer<float> dP(z.size()), dG(z.size()), dDb(K), dExtras(3);
    tc::DeviceBuffer<double> dAcc(2);
    tc::LossArgs a;
    a.logits = dZ.get(), a.bias = dBias.get(), a.labels = dY.get();
    a.batch = B, a.valid = valid, a.classes = K;
    a.probs = dP.get(), a.grad = dG.get(), a.dbias = dDb.get(), a.extras = dExtras.get(), a.accum = dAcc.get();
    tc::softmaxLoss(a, g.s());
    g.sync();
    check("probabilities", dP.toHost(), p, 1e-5);
    check("d logits", dG.toHost(), grad, 1e-5);
    check("d bias (column sums)", dDb.toHost(), dbCpu, 1e-5);
    const std::vector<float> ex = dExtras.toHost();
    const std::vector<double> acc = dAcc.toHost();
    check("loss sum", {ex[0], float(acc[0])}, {float(r.lossSum), float(r.lossSum)}, 1e-5);
    expect(ex[1] == float(r.correct) && acc[1] == r.correct && ex[2] == float(valid), "correct count and images");
}

void testRmsprop(Gpu& g) {
    std::printf("RMSprop kernel (3 steps from iteration 5, grad scale 0.5)\n");
    const size_t n = 4096 + 16;
    RmsPropConfig oc;
    oc.lr = 1e-3;
    oc.decay = 1e-2;
    RmsProp opt(oc, n);
    opt.setIterations(5);
    std::vector<float> p = randomVec(n, -1.0f, 1.0f);
    auto dP = upload(p);
    tc::DeviceBuffer<float> dA(n), dG(n + 4);
    tc::DeviceBuffer<tc::StepCounters> dC(1);
    tc::setIteration(dC.get(), 5, g.s());
    double window[3] = {0, 0, 0};
    for (int step = 0; step < 3; ++step) {
        std::vector<float> gr = randomVec(n + 3, -0.01f, 0.01f);
        gr[n] = 2.5f, gr[n + 1] = 7.0f, gr[n + 2] = 16.0f;  // the step's sums (rank averages)
        window[0] += 2.5 * 2, window[1] += 7.0 * 2, window[2] += 16.0 * 2;
        opt.step(p.data(), gr.data(), 0.5f);
        dG.upload(gr.data(), gr.size());
        tc::RmspropArgs a;
        a.params = dP.get(), a.accum = dA.get(), a.grads = dG.get(), a.n = n, a.gradScale = 0.5f;
        a.lr = oc.lr, a.decay = oc.decay, a.rho = oc.rho, a.epsilon = oc.epsilon;
        a.counters = dC.get();
        a.extrasScale = 2.0;
        tc::rmspropStep(a, g.s());
        g.sync();
    }
    check("parameters", dP.toHost(), p, 1e-5);
    check("accumulators", dA.toHost(), std::vector<float>(opt.accumulators(), opt.accumulators() + n), 1e-5);
    tc::StepCounters c{};
    dC.download(&c, 1);
    expect(c.iteration == 8 && c.stepInEpoch == 3 && c.ticket == 0, "step counters advanced by 3");
    expect(c.window[0] == window[0] && c.window[1] == window[1] && c.window[2] == window[2],
           "metric sums added to the window (x workers)");
}

void testAssemble(Gpu& g, bool nhwc) {
    std::printf("batch assembly with augmentation (rank 1 of 2), %s: bit-exact with the CPU batcher\n",
                nhwc ? "NHWC" : "NCHW");
    Dataset d;
    d.n = 40, d.h = 11, d.w = 9, d.c = 3;
    d.pixels.resize(size_t(d.n) * d.imageSize());
    d.labels.resize(size_t(d.n));
    for (uint8_t& v : d.pixels) v = uint8_t(g_rng.below(256));
    for (uint8_t& v : d.labels) v = uint8_t(g_rng.below(10));
    const int B = 4, rank = 1, workers = 2, epoch = 3;
    const int64_t step = 2;
    const uint64_t seed = 99;
    AugmentParams aug;
    Batcher batcher(d, B, rank, workers, seed, aug);
    batcher.startEpoch(epoch);
    std::vector<float> xCpu(size_t(B) * d.imageSize());
    std::vector<int32_t> yCpu(B);
    std::vector<uint64_t> pos(B);
    batcher.trainBatch(step, xCpu.data(), yCpu.data(), pos.data());

    tc::DeviceDataset dd;
    dd.upload(d);
    std::vector<int32_t> perm;
    epochPermutation(d.n, seed, epoch, perm);
    auto dPerm = upload(perm);
    tc::StepCounters c{};
    c.epoch = epoch, c.stepInEpoch = step;
    tc::DeviceBuffer<tc::StepCounters> dC(1);
    dC.upload(&c, 1);
    tc::DeviceBuffer<float> out(xCpu.size());
    tc::DeviceBuffer<int32_t> labels(B);
    tc::AssembleArgs a;
    a.pixels = dd.pixels.get(), a.labels = dd.labels.get(), a.h = d.h, a.w = d.w, a.c = d.c, a.batch = B;
    a.perm = dPerm.get(), a.counters = dC.get(), a.rank = rank, a.workers = workers;
    a.augment = true, a.widthShift = aug.widthShift, a.heightShift = aug.heightShift, a.flip = aug.horizontalFlip;
    a.seed = seed;
    a.out = out.get(), a.shape = tc::Tensor4::make(B, d.c, d.h, d.w, nhwc), a.outLabels = labels.get();
    tc::assembleBatch(a, g.s());
    g.sync();
    check("augmented images", fromLayout(out.toHost(), B, d.c, d.h, d.w, nhwc), xCpu, 0.0);
    expect(labels.toHost() == yCpu, "labels");
}

void testDropout(Gpu& g) {
    std::printf("dropout masks (rate 0.5 on 64 x 512, fused into bias + ReLU and its backward)\n");
    const int B = 64, U = 512;
    tc::StepCounters c{};
    c.epoch = 1, c.stepInEpoch = 7;
    tc::DeviceBuffer<tc::StepCounters> dC(1);
    dC.upload(&c, 1);
    const tc::DropoutArgs drop = tc::DropoutArgs::make(0.5f, 3, 1234, B, 0, 1, dC.get());
    const tc::Tensor4 t = tc::Tensor4::matrix(B, U);
    std::vector<float> ones(size_t(B) * U, 1.0f), zeros(U, 0.0f);
    auto dY = upload(ones), dB = upload(zeros), dY2 = upload(ones);
    tc::biasActivation(dY.get(), t, dB.get(), true, drop, g.s());
    tc::biasActivation(dY2.get(), t, dB.get(), true, drop, g.s());
    g.sync();
    const std::vector<float> y = dY.toHost();
    size_t kept = 0, bad = 0;
    for (float v : y) kept += v == 2.0f, bad += (v != 2.0f && v != 0.0f);
    const double frac = double(kept) / double(y.size());
    std::printf("  kept %.4f of %zu\n", frac, y.size());
    expect(bad == 0 && frac > 0.48 && frac < 0.52, "kept fraction ~0.5, kept values scaled by 2");
    expect(dY2.toHost() == y, "same step, same mask");
    c.stepInEpoch = 8;
    dC.upload(&c, 1);
    tc::DeviceBuffer<float> dY3(ones.size());
    dY3.upload(ones.data(), ones.size());
    tc::biasActivation(dY3.get(), t, dB.get(), true, drop, g.s());
    g.sync();
    expect(dY3.toHost() != y, "next step, another mask");
    // Backward: the gradient passes (times 2) exactly where the output was kept.
    auto dG = upload(ones);
    tc::DeviceBuffer<float> db(U), partials(tc::ReduceScratch::partialsFloats(t));
    tc::DeviceBuffer<unsigned int> ticket(1);
    tc::maskBiasGrad(dG.get(), dY.get(), t, true, drop.scale, db.get(), {partials.get(), ticket.get()}, g.s());
    g.sync();
    expect(dG.toHost() == y, "backward mask equals the forward mask");
}

// The fused pooling kernels against biasActivation + maxPoolForward and maxPoolBackward +
// maskBiasGrad, with dropout: bit for bit.
void testFusedPool(Gpu& g, int N, int C, int H, int W, bool nhwc) {
    std::printf("fused bias + ReLU + max-pool + dropout and its backward, %dx%dx%dx%d, %s: bit for bit\n", N, H, W,
                C, nhwc ? "NHWC" : "NCHW");
    tc::StepCounters c{};
    c.epoch = 2, c.stepInEpoch = 3;
    tc::DeviceBuffer<tc::StepCounters> dC(1);
    dC.upload(&c, 1);
    const tc::DropoutArgs drop = tc::DropoutArgs::make(0.25f, 1, 1234, N, 0, 1, dC.get());
    const tc::Tensor4 yt = tc::Tensor4::make(N, C, H, W, nhwc), pt = tc::Tensor4::make(N, C, H / 2, W / 2, nhwc);
    const std::vector<float> z = randomVec(size_t(yt.size()), -1.0f, 1.0f), b = randomVec(size_t(C), -0.2f, 0.2f);
    auto yLib = upload(z), yFused = upload(z), dB = upload(b);
    tc::DeviceBuffer<float> pLib(size_t(pt.size())), pFused(size_t(pt.size()));
    tc::biasActivation(yLib.get(), yt, dB.get(), true, tc::DropoutArgs{}, g.s());
    tc::maxPoolForward(yLib.get(), yt, pLib.get(), pt, drop, g.s());
    tc::biasReluMaxPool(yFused.get(), yt, dB.get(), pFused.get(), pt, drop, g.s());
    g.sync();
    check("forward: activation", yFused.toHost(), yLib.toHost(), 0.0);
    check("forward: pooled + dropout", pFused.toHost(), pLib.toHost(), 0.0);
    auto gy = upload(randomVec(size_t(pt.size()), -1.0f, 1.0f));
    tc::DeviceBuffer<float> gxLib(size_t(yt.size())), gxFused(size_t(yt.size())), dbLib{size_t(C)}, dbFused{size_t(C)};
    tc::DeviceBuffer<float> partials(tc::ReduceScratch::partialsFloats(yt));
    tc::DeviceBuffer<unsigned int> ticket(1);
    tc::maxPoolBackward(yLib.get(), yt, pLib.get(), gy.get(), pt, gxLib.get(), drop.scale, g.s());
    tc::maskBiasGrad(gxLib.get(), yLib.get(), yt, false, 1.0f, dbLib.get(), {partials.get(), ticket.get()}, g.s());
    tc::maxPoolBackwardBiasGrad(yLib.get(), yt, pLib.get(), gy.get(), pt, gxFused.get(), drop.scale, dbFused.get(),
                                {partials.get(), ticket.get()}, g.s());
    g.sync();
    check("backward: d input", gxFused.toHost(), gxLib.toHost(), 0.0);
    check("backward: d bias", dbFused.toHost(), dbLib.toHost(), 0.0);
}

// The fused head against the library path's kernels and cuBLAS GEMMs (training, dropout 0.5).
void testFusedHead(Gpu& g, int B, int K) {
    const int U = 512;
    std::printf("fused head: dense_1 activation + dense_2 + softmax loss + backward, batch %d, %d classes\n", B, K);
    tc::StepCounters c{};
    c.epoch = 1, c.stepInEpoch = 4;
    tc::DeviceBuffer<tc::StepCounters> dC(1);
    dC.upload(&c, 1);
    const tc::DropoutArgs drop = tc::DropoutArgs::make(0.5f, 3, 1234, B, 0, 1, dC.get());
    const std::vector<float> raw = randomVec(size_t(B) * U, -1.0f, 1.0f);
    auto b1 = upload(randomVec(size_t(U), -0.2f, 0.2f)), w2 = upload(randomVec(size_t(U) * K, -0.1f, 0.1f));
    auto b2 = upload(randomVec(size_t(K), -1.0f, 1.0f));
    std::vector<int32_t> labels(B);
    for (int32_t& v : labels) v = int32_t(g_rng.below(uint64_t(K)));
    auto y = upload(labels);
    const tc::Tensor4 ft = tc::Tensor4::matrix(B, U);
    // Library path.
    auto fcLib = upload(raw);
    tc::DeviceBuffer<float> logits(size_t(B) * K), gLogitsLib(size_t(B) * K), dW2Lib(size_t(U) * K), db2Lib(K);
    tc::DeviceBuffer<float> gFc1Lib(size_t(B) * U), db1Lib(U), extrasLib(3), partials(tc::ReduceScratch::partialsFloats(ft));
    tc::DeviceBuffer<unsigned int> ticket(1);
    tc::CublasDense dense2(B, U, K, false);
    tc::biasActivation(fcLib.get(), ft, b1.get(), true, drop, g.s());
    dense2.forward(g.ctx.blasMain(), fcLib.get(), w2.get(), logits.get());
    tc::LossArgs l;
    l.logits = logits.get(), l.bias = b2.get(), l.labels = y.get(), l.batch = B, l.valid = B, l.classes = K;
    l.grad = gLogitsLib.get(), l.dbias = db2Lib.get(), l.extras = extrasLib.get();
    tc::softmaxLoss(l, g.s());
    dense2.backwardWeights(g.ctx.blasMain(), fcLib.get(), gLogitsLib.get(), dW2Lib.get());
    dense2.backwardData(g.ctx.blasMain(), w2.get(), gLogitsLib.get(), gFc1Lib.get());
    tc::maskBiasGrad(gFc1Lib.get(), fcLib.get(), ft, true, drop.scale, db1Lib.get(), {partials.get(), ticket.get()},
                     g.s());
    // Fused.
    auto fcFused = upload(raw);
    tc::DeviceBuffer<float> gLogits(size_t(B) * K), dW2(size_t(U) * K), db2(K), gFc1(size_t(B) * U), db1(U), extras(3);
    tc::DeviceBuffer<double> rows(size_t(2) * B);
    tc::HeadArgs h;
    h.fc1 = fcFused.get(), h.b1 = b1.get(), h.drop = drop, h.units = U, h.w2 = w2.get(), h.b2 = b2.get();
    h.labels = y.get(), h.batch = B, h.valid = B, h.classes = K, h.extras = extras.get();
    h.gLogits = gLogits.get(), h.dW2 = dW2.get(), h.db2 = db2.get(), h.gFc1 = gFc1.get(), h.db1 = db1.get();
    h.rows = rows.get(), h.ticket = ticket.get();
    tc::denseHead(h, g.s());
    g.sync();
    check("dense_1 activation (+ dropout)", fcFused.toHost(), fcLib.toHost(), 0.0);
    check("d logits", gLogits.toHost(), gLogitsLib.toHost(), 1e-5);
    check("d dense_2 kernel", dW2.toHost(), dW2Lib.toHost(), 1e-5);
    check("d dense_2 bias", db2.toHost(), db2Lib.toHost(), 1e-5);
    check("d dense_1 output", gFc1.toHost(), gFc1Lib.toHost(), 1e-5);
    check("d dense_1 bias", db1.toHost(), db1Lib.toHost(), 1e-5);
    const std::vector<float> e = extras.toHost(), eLib = extrasLib.toHost();
    check("loss sum", {e[0]}, {eLib[0]}, 1e-5);
    expect(e[1] == eLib[1] && e[2] == eLib[2], "correct count and images");
    unsigned int t = 1;
    ticket.download(&t, 1);
    expect(t == 0u, "ticket left at zero");
}

// The fused path's own conv2d_1 (assembly + conv + bias + ReLU) against assembleBatch +
// cuDNN + biasActivation, and its backward against maskBiasGrad + cuDNN's backward-filter.
void testFirstLayer(Gpu& g, int B, int H, int W, int C, bool nhwc) {
    const int O = tc::kFirstLayerOut;
    std::printf("fused first layer %dx%dx%dx%d, %s: assembly bit for bit, conv + bias + ReLU and backward 1e-5\n", B, H,
                W, C, nhwc ? "NHWC" : "NCHW");
    Dataset d;
    d.n = 3 * B, d.h = H, d.w = W, d.c = C;
    d.pixels.resize(size_t(d.n) * d.imageSize());
    d.labels.resize(size_t(d.n));
    for (uint8_t& v : d.pixels) v = uint8_t(g_rng.below(256));
    for (uint8_t& v : d.labels) v = uint8_t(g_rng.below(10));
    tc::DeviceDataset dd;
    dd.upload(d);
    std::vector<int32_t> perm;
    epochPermutation(d.n, 99, 2, perm);
    auto dPerm = upload(perm);
    tc::StepCounters c{};
    c.epoch = 2, c.stepInEpoch = 1;
    tc::DeviceBuffer<tc::StepCounters> dC(1);
    dC.upload(&c, 1);
    const tc::Tensor4 xt = tc::Tensor4::make(B, C, H, W, nhwc);
    tc::DeviceBuffer<float> xLib(size_t(xt.size())), xFused(size_t(xt.size()));
    tc::DeviceBuffer<int32_t> labLib(B), labFused(B);
    AugmentParams aug;
    tc::AssembleArgs a;
    a.pixels = dd.pixels.get(), a.labels = dd.labels.get(), a.h = H, a.w = W, a.c = C, a.batch = B;
    a.perm = dPerm.get(), a.counters = dC.get(), a.rank = 0, a.workers = 1;
    a.augment = true, a.widthShift = aug.widthShift, a.heightShift = aug.heightShift, a.flip = aug.horizontalFlip;
    a.seed = 99, a.out = xLib.get(), a.shape = xt, a.outLabels = labLib.get();
    tc::assembleBatch(a, g.s());
    tc::CudnnConv::Config gc;
    gc.batch = B, gc.inC = C, gc.h = H, gc.w = W, gc.outC = O, gc.same = true, gc.nhwc = nhwc, gc.needDx = false;
    tc::CudnnConv conv(gc);
    const tc::Tensor4 yt = conv.outShape();
    auto dW = upload(randomVec(size_t(9) * C * O, -0.3f, 0.3f)), dB = upload(randomVec(size_t(O), -0.2f, 0.2f));
    tc::DeviceBuffer<float> yLib(size_t(yt.size())), yFused(size_t(yt.size())), gy(size_t(yt.size()));
    tc::DeviceBuffer<float> dwLib(size_t(9) * C * O), dwFused(size_t(9) * C * O), dbLib(O), dbFused(O);
    tc::DeviceBuffer<char> scratch(size_t(64) << 20);
    g.sync();
    conv.selectAlgorithms(g.ctx.dnnMain(), g.ctx.dnnMain(), xLib.get(), dW.get(), yLib.get(), gy.get(), nullptr,
                          dwLib.get(), scratch.get(), scratch.bytes());
    tc::DeviceBuffer<char> ws(std::max<size_t>({conv.forwardWorkspace(), conv.backwardFilterWorkspace(), 256}));
    conv.forward(g.ctx.dnnMain(), xLib.get(), dW.get(), yLib.get(), ws.get(), ws.bytes());
    tc::biasActivation(yLib.get(), yt, dB.get(), true, tc::DropoutArgs{}, g.s());
    tc::FirstLayerArgs f;
    f.batch = a, f.batch.out = xFused.get(), f.batch.outLabels = labFused.get();
    f.w = dW.get(), f.bias = dB.get(), f.y = yFused.get();
    tc::firstLayerForward(f, g.s());
    g.sync();
    check("assembled batch", xFused.toHost(), xLib.toHost(), 0.0);
    expect(labFused.toHost() == labLib.toHost(), "labels");
    check("conv2d_1 + bias + ReLU", yFused.toHost(), yLib.toHost(), 1e-5);
    const std::vector<float> r = randomVec(size_t(yt.size()), -1.0f, 1.0f);
    gy.upload(r.data(), r.size());
    tc::DeviceBuffer<float> partials(tc::firstLayerPartialsFloats(yt, C)), p2(tc::ReduceScratch::partialsFloats(yt));
    tc::DeviceBuffer<unsigned int> tickets(2);
    tc::firstLayerBackward(gy.get(), yLib.get(), yt, xLib.get(), xt, dwFused.get(), dbFused.get(), partials.get(),
                           tickets.get(), g.s());
    tc::maskBiasGrad(gy.get(), yLib.get(), yt, true, 1.0f, dbLib.get(), {p2.get(), tickets.get() + 1}, g.s());
    conv.backwardFilter(g.ctx.dnnMain(), xLib.get(), gy.get(), dwLib.get(), ws.get(), ws.bytes());
    g.sync();
    check("d bias", dbFused.toHost(), dbLib.toHost(), 0.0);
    check("d kernel", dwFused.toHost(), dwLib.toHost(), 1e-5);
}

// One of the fused path's own layers (layer_forward.cu, layer_backward.cu: conv2d_2..4,
// dense_1) against cuDNN / cuBLAS and the library kernels: the plain sums within 1e-5; the
// epilogues (bias + ReLU, pooling + dropout; the backward's ReLU mask and max-pool routing)
// bit for bit the library kernels' on the same sums; weight and bias gradients within 1e-5.
void testOwnLayer(Gpu& g, const char* name, const tc::GemmLayer& L, bool poolAfter, tc::GradInput through,
                  const tc::Tensor4& preT) {
    const tc::Tensor4 &xt = L.x, &yt = L.y;
    const bool pool = through == tc::GradInput::kPool;
    std::printf("own %s %dx%dx%dx%d -> %d, %s: sums 1e-5, epilogues bit for bit\n", name, xt.n, xt.h, xt.w, xt.c, yt.c,
                xt.nhwc ? "NHWC" : "NCHW");
    tc::StepCounters c{};
    c.epoch = 2, c.stepInEpoch = 1;
    tc::DeviceBuffer<tc::StepCounters> dC(1);
    dC.upload(&c, 1);
    auto relu = [](std::vector<float> v) {
        for (float& x : v) x = std::max(x, 0.0f);
        return v;
    };
    const tc::Tensor4 ptIn = pool ? tc::Tensor4::make(preT.n, preT.c, preT.h / 2, preT.w / 2, preT.nhwc) : tc::Tensor4{};
    const tc::DropoutArgs dropIn = tc::DropoutArgs::make(0.25f, 1, 99, xt.n, 0, 1, dC.get());
    auto pre = upload(relu(randomVec(pool ? size_t(preT.size()) : 1, -1.0f, 1.0f)));
    auto x = upload(relu(randomVec(size_t(xt.size()), -1.0f, 1.0f)));
    if (pool) tc::maxPoolForward(pre.get(), preT, x.get(), ptIn, dropIn, g.s());
    const size_t wn = size_t(L.taps()) * size_t(yt.c);
    auto w = upload(randomVec(wn, -0.1f, 0.1f)), bias = upload(randomVec(size_t(yt.c), -0.2f, 0.2f));
    const tc::GemmScratchSize fs = tc::layerForwardScratch(L), bs = tc::layerBackwardScratch(L, !L.dense);
    tc::DeviceBuffer<float> fPartials(std::max<size_t>(fs.partials, 1)), bPartials(std::max<size_t>(bs.partials, 1));
    tc::DeviceBuffer<unsigned int> fTickets(std::max<size_t>(fs.tickets, 1)), bTickets(std::max<size_t>(bs.tickets, 1));
    tc::DeviceBuffer<float> sums(size_t(yt.size())), ref(size_t(yt.size())), gy(size_t(yt.size()));
    tc::DeviceBuffer<float> dw(wn), dwRef(wn), gxSums(size_t(xt.size())), gxRef(size_t(xt.size()));
    const std::vector<float> r = randomVec(size_t(yt.size()), -1.0f, 1.0f);
    gy.upload(r.data(), r.size());

    // The library path's products.
    std::unique_ptr<tc::CudnnConv> conv;
    std::unique_ptr<tc::CublasDense> dense;
    tc::DeviceBuffer<char> ws;
    if (L.dense) {
        dense = std::make_unique<tc::CublasDense>(xt.n, xt.c, yt.c, false);
        dense->forward(g.ctx.blasMain(), x.get(), w.get(), ref.get());
        dense->backwardWeights(g.ctx.blasMain(), x.get(), gy.get(), dwRef.get());
        dense->backwardData(g.ctx.blasMain(), w.get(), gy.get(), gxRef.get());
    } else {
        tc::CudnnConv::Config gc;
        gc.batch = xt.n, gc.inC = xt.c, gc.h = xt.h, gc.w = xt.w, gc.outC = yt.c, gc.same = L.pad == 1;
        gc.nhwc = xt.nhwc;
        conv = std::make_unique<tc::CudnnConv>(gc);
        tc::DeviceBuffer<char> scratch(size_t(64) << 20);
        tc::DeviceBuffer<float> tmpY(size_t(yt.size())), tmpG(size_t(yt.size())), tmpX(size_t(xt.size())), tmpW(wn);
        g.sync();
        conv->selectAlgorithms(g.ctx.dnnMain(), g.ctx.dnnMain(), x.get(), w.get(), tmpY.get(), tmpG.get(), tmpX.get(),
                               tmpW.get(), scratch.get(), scratch.bytes());
        ws.allocate(std::max<size_t>({conv->forwardWorkspace(), conv->backwardFilterWorkspace(), 256}));
        conv->forward(g.ctx.dnnMain(), x.get(), w.get(), ref.get(), ws.get(), ws.bytes());
        conv->backwardFilter(g.ctx.dnnMain(), x.get(), gy.get(), dwRef.get(), ws.get(), ws.bytes());
        conv->backwardData(g.ctx.dnnMain(), w.get(), gy.get(), gxRef.get(), ws.get(), ws.bytes());
    }
    // The own kernels' sums.
    tc::LayerForwardArgs f;
    f.layer = L, f.x = x.get(), f.w = w.get(), f.y = sums.get(), f.partials = fPartials.get(), f.tickets = fTickets.get();
    tc::layerForward(f, g.s());
    tc::DeviceBuffer<float> db(size_t(yt.c)), dbLib(size_t(yt.c)), gCopy(size_t(yt.size()));
    tc::LayerBackwardArgs b;
    b.layer = L, b.x = x.get(), b.w = w.get(), b.gy = gy.get(), b.dw = dw.get(), b.db = L.dense ? nullptr : db.get();
    b.gx = gxSums.get(), b.partials = bPartials.get(), b.tickets = bTickets.get();
    tc::layerBackward(b, g.s());
    g.sync();
    check("forward sums", sums.toHost(), ref.toHost(), 1e-5);
    check("d kernel", dw.toHost(), dwRef.toHost(), 1e-5);
    check("d input sums", gxSums.toHost(), gxRef.toHost(), 1e-5);
    if (!L.dense) {
        gCopy.upload(r.data(), r.size());
        tc::DeviceBuffer<float> partials(tc::ReduceScratch::partialsFloats(yt));
        tc::DeviceBuffer<unsigned int> ticket(1);
        tc::maskBiasGrad(gCopy.get(), gCopy.get(), yt, false, 1.0f, dbLib.get(), {partials.get(), ticket.get()}, g.s());
        g.sync();
        check("d bias", db.toHost(), dbLib.toHost(), 1e-5);
        // Forward epilogue on the same sums.
        const tc::Tensor4 pt = tc::Tensor4::make(yt.n, yt.c, yt.h / 2, yt.w / 2, yt.nhwc);
        const tc::DropoutArgs drop = tc::DropoutArgs::make(0.25f, 2, 99, yt.n, 0, 1, dC.get());
        tc::DeviceBuffer<float> yFused(size_t(yt.size())), pFused(size_t(pt.size())), pLib(size_t(pt.size()));
        f.bias = bias.get(), f.y = yFused.get();
        if (poolAfter) f.p = pFused.get(), f.pt = pt, f.drop = drop;
        tc::layerForward(f, g.s());
        tc::biasActivation(sums.get(), yt, bias.get(), true, tc::DropoutArgs{}, g.s());
        if (poolAfter) tc::maxPoolForward(sums.get(), yt, pLib.get(), pt, drop, g.s());
        g.sync();
        check("+ bias + ReLU", yFused.toHost(), sums.toHost(), 0.0);
        if (poolAfter) check("+ pool + dropout", pFused.toHost(), pLib.toHost(), 0.0);
    }
    if (through != tc::GradInput::kNone) {  // backward epilogue on the same sums
        const tc::Tensor4 gxT = pool ? preT : xt;
        tc::DeviceBuffer<float> gxFused(size_t(gxT.size())), gxLib(size_t(gxT.size()));
        b.gx = gxFused.get(), b.through = through, b.pre = pre.get(), b.preT = preT, b.dropScale = dropIn.scale;
        tc::layerBackward(b, g.s());
        if (pool) {
            tc::maxPoolBackward(pre.get(), preT, x.get(), gxSums.get(), ptIn, gxLib.get(), dropIn.scale, g.s());
        } else {
            tc::DeviceBuffer<float> dbx(size_t(xt.c)), partials(tc::ReduceScratch::partialsFloats(xt));
            tc::DeviceBuffer<unsigned int> ticket(1);
            tc::maskBiasGrad(gxSums.get(), x.get(), xt, true, 1.0f, dbx.get(), {partials.get(), ticket.get()}, g.s());
            CUDA_CHECK(cudaMemcpyAsync(gxLib.get(), gxSums.get(), gxLib.bytes(), cudaMemcpyDeviceToDevice, g.s()));
        }
        g.sync();
        check(pool ? "d input through pool + dropout" : "d input through ReLU", gxFused.toHost(), gxLib.toHost(), 0.0);
    }
}

void testOwnLayers(Gpu& g, int B, int H, int W, bool nhwc) {
    const tc::Tensor4 a1 = tc::Tensor4::make(B, 32, H, W, nhwc);
    const tc::GemmLayer c2 = tc::GemmLayer::conv(a1, 32, false);
    const tc::GemmLayer c3 = tc::GemmLayer::conv(tc::Tensor4::make(B, 32, c2.y.h / 2, c2.y.w / 2, nhwc), 64, true);
    const tc::GemmLayer c4 = tc::GemmLayer::conv(c3.y, 64, false);
    const int flat = 64 * (c4.y.h / 2) * (c4.y.w / 2);
    testOwnLayer(g, "conv2d_2", c2, true, tc::GradInput::kNone, {});
    testOwnLayer(g, "conv2d_3", c3, false, tc::GradInput::kPool, c2.y);
    testOwnLayer(g, "conv2d_4", c4, true, tc::GradInput::kRelu, {});
    testOwnLayer(g, "dense_1", tc::GemmLayer::denseLayer(B, flat, 512), false, tc::GradInput::kPool, c4.y);
}

// The whole model: CPU Net vs GpuNet from the same weights and batch, no dropout.
void testNet(Gpu& g, int H, int W, int C, int B, bool nhwc, bool tf32, bool fused = false) {
    const double tol = tf32 ? kTolTf32 : kTolFp32;
    std::printf("whole network %dx%dx%d, batch %d, %s, %s, %s kernels: loss and every gradient\n", H, W, C, B,
                nhwc ? "NHWC" : "NCHW", tf32 ? "TF32" : "FP32", fused ? "fused" : "library");
    NetConfig cfg;
    cfg.h = H, cfg.w = W, cfg.c = C, cfg.batch = B, cfg.dropout = false;
    Net net(cfg);
    glorotInit(net.params(), net.weights(), 2018);
    net.syncWeights();
    const size_t P = net.paramFloats();
    std::vector<float> x = randomVec(size_t(B) * H * W * C, 0.0f, 1.0f);
    std::vector<int32_t> y(B);
    for (int32_t& v : y) v = int32_t(g_rng.below(10));
    std::copy(x.begin(), x.end(), net.input());
    std::copy(y.begin(), y.end(), net.labels());
    const LossResult r = net.forward(true, B);
    net.backward();

    const ParamTable& table = net.params();
    std::vector<float> staging(P);
    tc::canonicalToDevice(table, cfg, nhwc, net.weights(), staging.data());
    auto dW = upload(staging);
    tc::DeviceBuffer<float> dG(P + 4);
    tc::GpuNet gnet(g.ctx, cfg, B, true, nhwc, tf32, false, table, dW.get(), dG.get(), fused);
    gnet.selectAlgorithms();
    const std::vector<float> xg = toLayout(x, B, C, H, W, nhwc);
    CUDA_CHECK(cudaMemcpy(gnet.input(), xg.data(), xg.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(gnet.labels(), y.data(), y.size() * sizeof(int32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());  // pageable copies may still be in flight
    tc::GpuNet::ForwardArgs f;
    f.train = true;
    f.valid = B;
    gnet.forward(f);
    tc::DropoutArgs none[3];
    gnet.backward(none, nullptr);
    g.sync();
    std::vector<float> gd = dG.toHost(), gc(P);
    tc::deviceToCanonical(table, cfg, nhwc, gd.data(), gc.data());
    check("loss (mean over the batch)", {gd[P] / float(B)}, {float(r.lossSum / B)}, tf32 ? 1e-3 : 1e-5);
    // TF32: what rounding to TF32 does to each gradient, measured on the CPU (the same model
    // from TF32-rounded inputs and weights): the GPU may differ from FP32 by a few times that.
    std::vector<float> sensitivity(P, 0.0f);
    if (tf32) {
        Net rounded(cfg);
        std::vector<float> xr = x, wr(net.weights(), net.weights() + P);
        roundTf32(xr, true);
        roundTf32(wr, true);
        std::copy(wr.begin(), wr.end(), rounded.weights());
        rounded.syncWeights();
        std::copy(xr.begin(), xr.end(), rounded.input());
        std::copy(y.begin(), y.end(), rounded.labels());
        rounded.forward(true, B);
        rounded.backward();
        for (size_t i = 0; i < P; ++i) sensitivity[i] = std::fabs(rounded.grads()[i] - net.grads()[i]);
    }
    for (const ParamInfo& p : table.all()) {
        const std::vector<float> ref(net.grads() + p.offset, net.grads() + p.offset + p.size);
        double t = tol;
        if (tf32) {
            double maxRef = 0, maxSens = 0;
            for (size_t i = 0; i < p.size; ++i) {
                maxRef = std::max(maxRef, std::fabs(double(ref[i])));
                maxSens = std::max(maxSens, double(sensitivity[p.offset + i]));
            }
            t = std::max(tol, 3.0 * maxSens / std::max(maxRef, 1e-30));
            std::printf("  d %s/%s: TF32 rounding alone moves it by %.2g of its largest value: tolerance %.2g\n",
                        p.layer.c_str(), p.name.c_str(), maxSens / std::max(maxRef, 1e-30), t);
        }
        check("d " + p.layer + "/" + p.name, std::vector<float>(gc.begin() + long(p.offset), gc.begin() + long(p.offset + p.size)),
              ref, t);
    }
}

}  // namespace

int main() {
    const tc::ProbeResult probe = tc::probe();
    if (probe.usable == 0) {
        std::printf("SKIPPED: no NVIDIA GPU: %s\n", probe.reason.c_str());
        return 77;
    }
    try {
        const tc::DeviceInfo dev = tc::selectDevice(0, 1, false);
        std::printf("GPU %d: %s\n%s\n", dev.id, dev.describe().c_str(), tc::libraryVersions().c_str());
        Gpu g;
        for (bool tf32 : {false, true}) {
            for (bool nhwc : {true, false}) {
                testConv(g, 4, 3, 16, 16, 32, true, false, nhwc, tf32);
                testConv(g, 4, 32, 16, 16, 32, false, true, nhwc, tf32);
                testConv(g, 3, 32, 7, 9, 64, true, true, nhwc, tf32);
                testConv(g, 3, 64, 7, 9, 64, false, true, nhwc, tf32);
            }
            testDense(g, 32, 2304, 512, true, tf32);
            testDense(g, 32, 512, 10, false, tf32);
        }
        for (bool nhwc : {true, false}) {
            testPool(g, 2, 32, 6, 8, nhwc);
            testPool(g, 3, 64, 7, 5, nhwc);  // odd sizes: the last row/column is dropped
            testAssemble(g, nhwc);
        }
        testSoftmax(g);
        testRmsprop(g);
        testDropout(g);
        for (bool nhwc : {true, false}) {
            testNet(g, 32, 32, 3, 16, nhwc, false);
            testNet(g, 28, 28, 1, 8, nhwc, false);
        }
        testNet(g, 32, 32, 3, 16, true, true);
        // --gpu-kernels fused: its kernels against the library ones, and the whole network.
        for (bool nhwc : {true, false}) {
            testFusedPool(g, 4, 32, 30, 30, nhwc);
            testFusedPool(g, 3, 64, 13, 13, nhwc);  // odd: the last row/column only activated
            testNet(g, 32, 32, 3, 16, nhwc, false, true);
            testNet(g, 28, 28, 1, 8, nhwc, false, true);
        }
        testFusedHead(g, 32, 10);
        testFusedHead(g, 7, 100);
        for (bool nhwc : {true, false}) {
            testFirstLayer(g, 32, 32, 32, 3, nhwc);
            testFirstLayer(g, 7, 28, 28, 1, nhwc);
            testOwnLayers(g, 32, 32, 32, nhwc);
            testOwnLayers(g, 7, 28, 28, nhwc);
        }
    } catch (const std::exception& e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
    const Tally& t = g_tally;
    std::printf(t.failures == 0 ? "all %d GPU checks match the CPU backend\n" : "%d of %d GPU check(s) FAILED\n",
                t.failures ? t.failures : t.checks, t.checks);
    return t.failures == 0 ? 0 : 1;
}
