#pragma once
// The GPU backend's training step without a GPU (tests only): the hand-written kernels run
// emulated on the host (trainer/src/cuda/host_emulation.h), the convolutions and GEMMs
// (cuDNN and cuBLAS on a GPU) are oneDNN primitives that read and write the GPU backend's
// memory layouts directly: NHWC or NCHW activations, OHWI or OIHW filters and dense
// kernels straight out of the flat device parameter buffer (cuda/layout.h).
//
// EmulatedGpuStep restates GpuNet::forward/backward and CudaBackend::enqueueStep call for
// call (cuDNN/cuBLAS replaced), for both kernel paths (--gpu-kernels library|fused): a
// change there must be made here too. It counts the library calls it stands in for
// (libraryCalls()); the emulator counts the kernels of its own (emu::launchStats()). Used by
// trainer_gpu_emulated_step (against the CPU backend's steps) and, wrapped as a Backend
// (emulated_gpu_backend.h), by trainer_gpu_selfcheck.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda/kernels.h"
#include "cuda/layout.h"
#include "data/shuffle.h"
#include "model/dnnl_util.h"
#include "model/params.h"
#include "optim/rmsprop.h"
#include "train/backend.h"

namespace td::test {

namespace tc = td::cuda;
using dnnl::algorithm;
using dnnl::prop_kind;

inline float* at(std::vector<float>& v) { return v.data(); }

// The cuDNN / cuBLAS calls made so far (each LayoutConv or LayoutDense operation is one).
inline unsigned long long g_libraryCalls = 0;
inline unsigned long long libraryCalls() { return g_libraryCalls; }

// 3x3 stride-1 convolution without bias on the GPU layouts (what CudnnConv does): the
// tensors and filters are read and written in those layouts; oneDNN computes in its own
// blocked formats in between (its primitives for plain layouts are the slow reference ones).
class LayoutConv {
public:
    LayoutConv(Ctx& ctx, const tc::Tensor4& in, int outC, bool same) : m_ctx(ctx) {
        const memory::dim p = same ? 1 : 0;
        const memory::dims src{in.n, in.c, in.h, in.w}, wts{outC, in.c, 3, 3};
        m_out = tc::Tensor4::make(in.n, outC, same ? in.h : in.h - 2, same ? in.w : in.w - 2, in.nhwc);
        const memory::dims dst{m_out.n, m_out.c, m_out.h, m_out.w};
        const tag act = in.nhwc ? tag::nhwc : tag::nchw;
        m_src = plain(src, act), m_dst = plain(dst, act), m_w = plain(wts, in.nhwc ? tag::ohwi : tag::oihw);
        const memory::desc anySrc = anyDesc(src), anyDst = anyDesc(dst), anyW = anyDesc(wts);
        const memory::dims s{1, 1}, pad{p, p};
        m_fwdPd = dnnl::convolution_forward::primitive_desc(
            dnnl::convolution_forward::desc(prop_kind::forward_training, algorithm::convolution_direct, anySrc, anyW,
                                            anyDst, s, pad, pad),
            ctx.eng);
        m_bwdDataPd = dnnl::convolution_backward_data::primitive_desc(
            dnnl::convolution_backward_data::desc(algorithm::convolution_direct, anySrc, anyW, anyDst, s, pad, pad),
            ctx.eng, m_fwdPd);
        m_bwdWeightsPd = dnnl::convolution_backward_weights::primitive_desc(
            dnnl::convolution_backward_weights::desc(algorithm::convolution_direct, anySrc, anyW, anyDst, s, pad, pad),
            ctx.eng, m_fwdPd);
    }
    const tc::Tensor4& outShape() const { return m_out; }
    void forward(const float* x, const float* w, float* y) {
        ++g_libraryCalls;
        memory dst(m_fwdPd.dst_desc(), m_ctx.eng);
        dnnl::convolution_forward(m_fwdPd).execute(
            m_ctx.stream, {{DNNL_ARG_SRC, in(m_src, m_fwdPd.src_desc(), x)},
                           {DNNL_ARG_WEIGHTS, in(m_w, m_fwdPd.weights_desc(), w)}, {DNNL_ARG_DST, dst}});
        out(dst, m_dst, y);
    }
    void backwardFilter(const float* x, const float* dy, float* dw) {
        ++g_libraryCalls;
        memory diffW(m_bwdWeightsPd.diff_weights_desc(), m_ctx.eng);
        dnnl::convolution_backward_weights(m_bwdWeightsPd).execute(
            m_ctx.stream, {{DNNL_ARG_SRC, in(m_src, m_bwdWeightsPd.src_desc(), x)},
                           {DNNL_ARG_DIFF_DST, in(m_dst, m_bwdWeightsPd.diff_dst_desc(), dy)},
                           {DNNL_ARG_DIFF_WEIGHTS, diffW}});
        out(diffW, m_w, dw);
    }
    void backwardData(const float* w, const float* dy, float* dx) {
        ++g_libraryCalls;
        memory diffSrc(m_bwdDataPd.diff_src_desc(), m_ctx.eng);
        dnnl::convolution_backward_data(m_bwdDataPd).execute(
            m_ctx.stream, {{DNNL_ARG_WEIGHTS, in(m_w, m_bwdDataPd.weights_desc(), w)},
                           {DNNL_ARG_DIFF_DST, in(m_dst, m_bwdDataPd.diff_dst_desc(), dy)},
                           {DNNL_ARG_DIFF_SRC, diffSrc}});
        out(diffSrc, m_src, dx);
    }

private:
    // The GPU-layout buffer p as a memory of the primitive's format.
    memory in(const memory::desc& layout, const memory::desc& want, const float* p) {
        memory user(layout, m_ctx.eng, const_cast<float*>(p));
        if (want == layout) return user;
        memory m(want, m_ctx.eng);
        dnnl::reorder(user, m).execute(m_ctx.stream, user, m);
        return m;
    }
    void out(const memory& result, const memory::desc& layout, float* p) {
        memory user(layout, m_ctx.eng, p);
        dnnl::reorder(result, user).execute(m_ctx.stream, const_cast<memory&>(result), user);
        m_ctx.stream.wait();
    }
    Ctx& m_ctx;
    tc::Tensor4 m_out;
    memory::desc m_src, m_dst, m_w;
    dnnl::convolution_forward::primitive_desc m_fwdPd;
    dnnl::convolution_backward_data::primitive_desc m_bwdDataPd;
    dnnl::convolution_backward_weights::primitive_desc m_bwdWeightsPd;
};

// y = x w, dw = x^T dy, dx = dy w^T on row-major (N, in), (in, out) matrices (CublasDense).
class LayoutDense {
public:
    LayoutDense(Ctx& ctx, int n, int in, int out) : m_ctx(ctx) {
        m_fwd = make({n, in}, tag::ab, {in, out}, tag::ab, {n, out});
        m_bwdWeights = make({in, n}, tag::ba, {n, out}, tag::ab, {in, out});
        m_bwdData = make({n, out}, tag::ab, {out, in}, tag::ba, {n, in});
    }
    void forward(const float* x, const float* w, float* y) { run(m_fwd, x, w, y); }
    void backwardWeights(const float* x, const float* dy, float* dw) { run(m_bwdWeights, x, dy, dw); }
    void backwardData(const float* w, const float* dy, float* dx) { run(m_bwdData, dy, w, dx); }

private:
    struct MatMul {
        dnnl::matmul prim;
        memory::desc a, b, c;
    };
    MatMul make(const memory::dims& a, tag ta, const memory::dims& b, tag tb, const memory::dims& c) {
        MatMul m;
        m.a = plain(a, ta), m.b = plain(b, tb), m.c = plain(c, tag::ab);
        m.prim = dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(m.a, m.b, m.c), m_ctx.eng));
        return m;
    }
    void run(const MatMul& m, const float* a, const float* b, float* c) {
        ++g_libraryCalls;
        m.prim.execute(m_ctx.stream, {{DNNL_ARG_SRC, memory(m.a, m_ctx.eng, const_cast<float*>(a))},
                                      {DNNL_ARG_WEIGHTS, memory(m.b, m_ctx.eng, const_cast<float*>(b))},
                                      {DNNL_ARG_DST, memory(m.c, m_ctx.eng, c)}});
        m_ctx.stream.wait();
    }
    Ctx& m_ctx;
    MatMul m_fwd, m_bwdWeights, m_bwdData;
};

// Split-reduction scratch of one own-GEMM call site (GpuNet's GemmScratch).
struct HostGemmScratch {
    std::vector<float> partials;
    std::vector<unsigned int> tickets;
    void resize(const tc::GemmScratchSize& s) { partials.resize(s.partials), tickets.assign(s.tickets, 0u); }
};

// The GPU backend's training state and step, on the host.
class EmulatedGpuStep {
public:
    EmulatedGpuStep(const NetConfig& cfg, bool nhwc, const Dataset& data, bool fused = false)
        : m_cfg(cfg), m_nhwc(nhwc), m_fused(fused), m_data(data), m_table(makeParamTable(cfg)),
          m_P(m_table.totalFloats()) {
        const int B = cfg.batch;
        m_x = tc::Tensor4::make(B, cfg.c, cfg.h, cfg.w, nhwc);
        m_conv[0] = std::make_unique<LayoutConv>(m_ctx, m_x, 32, true);
        m_a1 = m_conv[0]->outShape();
        m_conv[1] = std::make_unique<LayoutConv>(m_ctx, m_a1, 32, false);
        m_a2 = m_conv[1]->outShape();
        m_p1 = tc::Tensor4::make(B, 32, m_a2.h / 2, m_a2.w / 2, nhwc);
        m_conv[2] = std::make_unique<LayoutConv>(m_ctx, m_p1, 64, true);
        m_a3 = m_conv[2]->outShape();
        m_conv[3] = std::make_unique<LayoutConv>(m_ctx, m_a3, 64, false);
        m_a4 = m_conv[3]->outShape();
        m_p2 = tc::Tensor4::make(B, 64, m_a4.h / 2, m_a4.w / 2, nhwc);
        const int flat = int(m_p2.c * m_p2.h * m_p2.w);
        m_f1 = tc::Tensor4::matrix(B, 512);
        m_dense[0] = std::make_unique<LayoutDense>(m_ctx, B, flat, 512);
        m_dense[1] = std::make_unique<LayoutDense>(m_ctx, B, 512, cfg.classes);
        auto alloc = [](std::vector<float>& v, const tc::Tensor4& t) { v.resize(size_t(t.size())); };
        alloc(m_input, m_x), alloc(m_act1, m_a1), alloc(m_act2, m_a2), alloc(m_pool1, m_p1);
        alloc(m_act3, m_a3), alloc(m_act4, m_a4), alloc(m_pool2, m_p2), alloc(m_fc1, m_f1);
        m_logits.resize(size_t(B) * cfg.classes);
        m_gAct1 = m_act1, m_gAct2 = m_act2, m_gPool1 = m_pool1, m_gAct3 = m_act3, m_gAct4 = m_act4;
        m_gPool2 = m_pool2, m_gFc1 = m_fc1, m_gLogits = m_logits;
        const tc::Tensor4 sites[5] = {m_f1, m_a4, m_a3, m_a2, m_a1};
        for (int i = 0; i < 5; ++i) m_partials[i].resize(tc::ReduceScratch::partialsFloats(sites[i]));
        m_labels.resize(size_t(B));
        m_headRows.resize(size_t(2) * size_t(B));
        m_firstFused = fused && cfg.c <= tc::kFirstLayerMaxIn;  // GpuNet::firstLayerFused
        // The fused path's own conv2d_2..4 and dense_1 (GpuNet's m_layers) and their scratch.
        m_layers[0] = tc::GemmLayer::conv(m_a1, 32, false);
        m_layers[1] = tc::GemmLayer::conv(m_p1, 64, true);
        m_layers[2] = tc::GemmLayer::conv(m_a3, 64, false);
        m_layers[3] = tc::GemmLayer::denseLayer(B, flat, 512);
        for (int i = 0; i < 4; ++i) m_gemmScratch[i].resize(tc::layerBackwardScratch(m_layers[i], i < 3));
        m_gemmScratch[4].resize(tc::layerForwardScratch(m_layers[3]));
        if (m_firstFused) m_firstPartials.resize(tc::firstLayerPartialsFloats(m_a1, cfg.c));
        m_weights.assign(m_P, 0.0f);
        m_accum.assign(m_P, 0.0f);
        m_grads.assign(m_P + 4, 0.0f);
    }

    // Models that a GPU rounds differently from oneDNN (cuDNN and cuBLAS sum in other
    // orders): from now on every convolution and GEMM output moves by up to `relative` times
    // the layer's mean magnitude, a fixed pseudo-random amount per element and step. 0: off.
    void setRoundingNoise(double relative) { m_noise = relative; }

    // CudaBackend::pushState, setIterations, beginTraining, startEpoch.
    void setState(const float* canonicalWeights, const float* canonicalAccumulators) {
        tc::canonicalToDevice(m_table, m_cfg, m_nhwc, canonicalWeights, m_weights.data());
        tc::canonicalToDevice(m_table, m_cfg, m_nhwc, canonicalAccumulators, m_accum.data());
    }
    void setIterations(int64_t it) { tc::setIteration(&m_counters, it, nullptr); }
    void begin(uint64_t seed, const AugmentParams& aug) {
        m_seed = seed, m_aug = aug;
        const float rates[3] = {0.25f, 0.25f, 0.5f};
        for (int l = 0; l < 3; ++l)
            m_drop[l] = tc::DropoutArgs::make(m_cfg.dropout ? rates[l] : 0.0f, unsigned(l + 1), seed, m_cfg.batch, 0, 1,
                                              &m_counters);
    }
    void startEpoch(int epoch) {
        epochPermutation(m_data.n, m_seed, epoch, m_perm);
        tc::setEpoch(&m_counters, epoch, nullptr);
    }

    // CudaBackend::enqueueStep with one rank (no all-reduce).
    void step(const RmsPropConfig& oc) {
        tc::AssembleArgs a;
        a.pixels = m_data.pixels.data(), a.labels = m_data.labels.data();
        a.h = m_data.h, a.w = m_data.w, a.c = m_data.c, a.batch = m_cfg.batch;
        a.perm = m_perm.data(), a.counters = &m_counters, a.rank = 0, a.workers = 1;
        a.augment = m_aug.enabled, a.widthShift = m_aug.widthShift, a.heightShift = m_aug.heightShift;
        a.flip = m_aug.horizontalFlip, a.seed = m_seed;
        a.out = at(m_input), a.shape = m_x, a.outLabels = m_labels.data();
        if (!m_firstFused) tc::assembleBatch(a, nullptr);
        forward(m_firstFused ? &a : nullptr);
        backward();
        tc::RmspropArgs r;
        r.params = at(m_weights), r.accum = at(m_accum), r.grads = at(m_grads), r.n = m_P, r.gradScale = 1.0f;
        r.lr = oc.lr, r.decay = oc.decay, r.rho = oc.rho, r.epsilon = oc.epsilon;
        r.counters = &m_counters, r.extrasScale = 1.0;
        tc::rmspropStep(r, nullptr);
        ++m_steps;
    }

    std::vector<float> canonical(const std::vector<float>& device) const {
        std::vector<float> c(m_P);
        tc::deviceToCanonical(m_table, m_cfg, m_nhwc, device.data(), c.data());
        return c;
    }
    const std::vector<float>& weights() const { return m_weights; }
    const std::vector<float>& accumulators() const { return m_accum; }
    const std::vector<float>& gradients() const { return m_grads; }  // P gradients, then the step's sums
    tc::StepCounters& counters() { return m_counters; }
    // GpuNet::layerOutputs.
    std::vector<LayerOutput> layerOutputs() const {
        const std::pair<const char*, std::pair<const std::vector<float>*, tc::Tensor4>> layers[] = {
            {"conv2d_1", {&m_act1, m_a1}}, {"conv2d_2", {&m_act2, m_a2}}, {"max_pooling2d_1", {&m_pool1, m_p1}},
            {"conv2d_3", {&m_act3, m_a3}}, {"conv2d_4", {&m_act4, m_a4}}, {"max_pooling2d_2", {&m_pool2, m_p2}},
            {"dense_1", {&m_fc1, m_f1}}};
        std::vector<LayerOutput> out;
        for (const auto& [name, buf] : layers) out.push_back({name, tc::activationToNhwc(buf.first->data(), buf.second)});
        return out;
    }
    const ParamTable& table() const { return m_table; }

private:
    float* W(int i) { return m_weights.data() + m_table.all()[size_t(i)].offset; }
    float* G(int i) { return m_grads.data() + m_table.all()[size_t(i)].offset; }
    tc::ReduceScratch scratch(int site) { return {m_partials[site].data(), &m_tickets[site]}; }

    void perturb(std::vector<float>& y, uint64_t layer) const {
        if (m_noise == 0.0 || y.empty()) return;
        double mean = 0;
        for (float v : y) mean += std::fabs(double(v));
        mean /= double(y.size());
        for (size_t i = 0; i < y.size(); ++i) {
            uint64_t z = (uint64_t(i) << 16 ^ layer << 8 ^ m_steps) + 0x9e3779b97f4a7c15ull;  // splitmix64
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            z ^= z >> 31;
            const double u = double(z >> 11) / double(1ull << 52) - 1.0;  // [-1, 1)
            y[i] = float(double(y[i]) + m_noise * mean * u);
        }
    }

    // GpuNet::forward, training.
    void forward(const tc::AssembleArgs* assemble) {
        const tc::DropoutArgs none;
        if (assemble) {  // the fused path's own conv2d_1 (no rounding noise: it is not cuDNN)
            tc::FirstLayerArgs f;
            f.batch = *assemble, f.w = W(0), f.bias = W(1), f.y = at(m_act1);
            tc::firstLayerForward(f, nullptr);
        } else {
            m_conv[0]->forward(at(m_input), W(0), at(m_act1));
            perturb(m_act1, 1);
            tc::biasActivation(at(m_act1), m_a1, W(1), true, none, nullptr);
        }
        if (m_fused) {  // GpuNet::forward: own implicit-GEMM layers, then the head
            layerForward(0, at(m_act1), W(2), W(3), at(m_act2), at(m_pool1), m_p1, m_drop[0]);
            layerForward(1, at(m_pool1), W(4), W(5), at(m_act3), nullptr, {}, none);
            layerForward(2, at(m_act3), W(6), W(7), at(m_act4), at(m_pool2), m_p2, m_drop[1]);
            layerForward(3, at(m_pool2), W(8), nullptr, at(m_fc1), nullptr, {}, none);
            tc::HeadArgs h;  // GpuNet::forwardHead
            h.fc1 = at(m_fc1), h.b1 = W(9), h.drop = m_drop[2], h.units = 512;
            h.w2 = W(10), h.b2 = W(11), h.labels = m_labels.data();
            h.batch = m_cfg.batch, h.valid = m_cfg.batch, h.classes = m_cfg.classes;
            h.accum = m_counters.localWindow, h.extras = m_grads.data() + m_P;
            h.gLogits = at(m_gLogits), h.dW2 = G(10), h.db2 = G(11), h.gFc1 = at(m_gFc1), h.db1 = G(9);
            h.rows = m_headRows.data(), h.ticket = &m_tickets[5];
            tc::denseHead(h, nullptr);
            return;
        }
        m_conv[1]->forward(at(m_act1), W(2), at(m_act2));
        perturb(m_act2, 2);
        tc::biasActivation(at(m_act2), m_a2, W(3), true, none, nullptr);
        tc::maxPoolForward(at(m_act2), m_a2, at(m_pool1), m_p1, m_drop[0], nullptr);
        m_conv[2]->forward(at(m_pool1), W(4), at(m_act3));
        perturb(m_act3, 3);
        tc::biasActivation(at(m_act3), m_a3, W(5), true, none, nullptr);
        m_conv[3]->forward(at(m_act3), W(6), at(m_act4));
        perturb(m_act4, 4);
        tc::biasActivation(at(m_act4), m_a4, W(7), true, none, nullptr);
        tc::maxPoolForward(at(m_act4), m_a4, at(m_pool2), m_p2, m_drop[1], nullptr);
        m_dense[0]->forward(at(m_pool2), W(8), at(m_fc1));
        perturb(m_fc1, 5);
        tc::biasActivation(at(m_fc1), m_f1, W(9), true, m_drop[2], nullptr);
        m_dense[1]->forward(at(m_fc1), W(10), at(m_logits));
        perturb(m_logits, 6);
        tc::LossArgs l;
        l.logits = at(m_logits), l.bias = W(11), l.labels = m_labels.data();
        l.batch = m_cfg.batch, l.valid = m_cfg.batch, l.classes = m_cfg.classes;
        l.grad = at(m_gLogits), l.dbias = G(11), l.extras = m_grads.data() + m_P;
        l.accum = m_counters.localWindow;
        tc::softmaxLoss(l, nullptr);
    }

    // GpuNet::backward.
    void backward() {
        if (m_fused) {
            using GI = tc::GradInput;
            layerBackward(3, at(m_pool2), W(8), at(m_gFc1), G(8), nullptr, at(m_gAct4), GI::kPool, at(m_act4), m_a4,
                          m_drop[1].scale);
            layerBackward(2, at(m_act3), W(6), at(m_gAct4), G(6), G(7), at(m_gAct3), GI::kRelu, nullptr, {}, 1.0f);
            layerBackward(1, at(m_pool1), W(4), at(m_gAct3), G(4), G(5), at(m_gAct2), GI::kPool, at(m_act2), m_a2,
                          m_drop[0].scale);
            layerBackward(0, at(m_act1), W(2), at(m_gAct2), G(2), G(3), at(m_gAct1), GI::kNone, nullptr, {}, 1.0f);
        } else {
            m_dense[1]->backwardWeights(at(m_fc1), at(m_gLogits), G(10));
            m_dense[1]->backwardData(W(10), at(m_gLogits), at(m_gFc1));
            tc::maskBiasGrad(at(m_gFc1), at(m_fc1), m_f1, true, m_drop[2].scale, G(9), scratch(0), nullptr);
            m_dense[0]->backwardWeights(at(m_pool2), at(m_gFc1), G(8));
            m_dense[0]->backwardData(W(8), at(m_gFc1), at(m_gPool2));
            tc::maxPoolBackward(at(m_act4), m_a4, at(m_pool2), at(m_gPool2), m_p2, at(m_gAct4), m_drop[1].scale,
                                nullptr);
            tc::maskBiasGrad(at(m_gAct4), at(m_act4), m_a4, false, 1.0f, G(7), scratch(1), nullptr);
            m_conv[3]->backwardFilter(at(m_act3), at(m_gAct4), G(6));
            m_conv[3]->backwardData(W(6), at(m_gAct4), at(m_gAct3));
            tc::maskBiasGrad(at(m_gAct3), at(m_act3), m_a3, true, 1.0f, G(5), scratch(2), nullptr);
            m_conv[2]->backwardFilter(at(m_pool1), at(m_gAct3), G(4));
            m_conv[2]->backwardData(W(4), at(m_gAct3), at(m_gPool1));
            tc::maxPoolBackward(at(m_act2), m_a2, at(m_pool1), at(m_gPool1), m_p1, at(m_gAct2), m_drop[0].scale,
                                nullptr);
            tc::maskBiasGrad(at(m_gAct2), at(m_act2), m_a2, false, 1.0f, G(3), scratch(3), nullptr);
            m_conv[1]->backwardFilter(at(m_act1), at(m_gAct2), G(2));
            m_conv[1]->backwardData(W(2), at(m_gAct2), at(m_gAct1));
        }
        if (m_firstFused) {
            tc::firstLayerBackward(at(m_gAct1), at(m_act1), m_a1, at(m_input), m_x, G(0), G(1), m_firstPartials.data(),
                                   &m_tickets[6], nullptr);
        } else {
            tc::maskBiasGrad(at(m_gAct1), at(m_act1), m_a1, true, 1.0f, G(1), scratch(4), nullptr);
            m_conv[0]->backwardFilter(at(m_input), at(m_gAct1), G(0));
        }
    }

    // GpuNet::layerForward / layerBackward: own layer i (0..2: conv2d_2..4, 3: dense_1).
    void layerForward(int i, const float* x, const float* w, const float* bias, float* y, float* p,
                      const tc::Tensor4& pt, const tc::DropoutArgs& drop) {
        tc::LayerForwardArgs f;
        f.layer = m_layers[i], f.x = x, f.w = w, f.bias = bias, f.y = y, f.p = p, f.pt = pt, f.drop = drop;
        if (i == 3) f.partials = m_gemmScratch[4].partials.data(), f.tickets = m_gemmScratch[4].tickets.data();
        tc::layerForward(f, nullptr);
    }
    void layerBackward(int i, const float* x, const float* w, const float* gy, float* dw, float* db, float* gx,
                       tc::GradInput through, const float* pre, const tc::Tensor4& preT, float dropScale) {
        tc::LayerBackwardArgs b;
        b.layer = m_layers[i], b.x = x, b.w = w, b.gy = gy, b.dw = dw, b.db = db, b.gx = gx, b.through = through;
        b.pre = pre, b.preT = preT, b.dropScale = dropScale;
        b.partials = m_gemmScratch[i].partials.data(), b.tickets = m_gemmScratch[i].tickets.data();
        tc::layerBackward(b, nullptr);
    }

    NetConfig m_cfg;
    bool m_nhwc;
    bool m_fused;
    bool m_firstFused = false;
    const Dataset& m_data;
    ParamTable m_table;
    size_t m_P;
    Ctx m_ctx;
    std::unique_ptr<LayoutConv> m_conv[4];
    std::unique_ptr<LayoutDense> m_dense[2];
    tc::Tensor4 m_x, m_a1, m_a2, m_p1, m_a3, m_a4, m_p2, m_f1;
    std::vector<float> m_input, m_act1, m_act2, m_pool1, m_act3, m_act4, m_pool2, m_fc1, m_logits;
    std::vector<float> m_gAct1, m_gAct2, m_gPool1, m_gAct3, m_gAct4, m_gPool2, m_gFc1, m_gLogits;
    std::vector<float> m_partials[5];
    unsigned int m_tickets[7] = {0, 0, 0, 0, 0, 0, 0};
    std::vector<double> m_headRows;
    std::vector<float> m_firstPartials;
    tc::GemmLayer m_layers[4];
    HostGemmScratch m_gemmScratch[5];  // backward of m_layers[0..3], dense_1's forward
    std::vector<int32_t> m_labels, m_perm;
    std::vector<float> m_weights, m_accum, m_grads;
    tc::StepCounters m_counters{};
    tc::DropoutArgs m_drop[3];
    uint64_t m_seed = 0;
    AugmentParams m_aug;
    double m_noise = 0;
    uint64_t m_steps = 0;
};

}  // namespace td::test
