#include "cuda/gpu_net.h"

#include <algorithm>

#include "cuda/cuda_check.h"
#include "cuda/layout.h"

namespace td::cuda {

// ---- ProfileTimeline ----

ProfileTimeline::ProfileTimeline() {
    for (cudaEvent_t& e : m_events) CUDA_CHECK(cudaEventCreate(&e));
}

ProfileTimeline::~ProfileTimeline() {
    for (cudaEvent_t e : m_events) cudaEventDestroy(e);
}

void ProfileTimeline::mark(int section, cudaStream_t s) {
    CUDA_CHECK(cudaEventRecord(m_events[size_t(section)], s));
    m_order.push_back(section);
    m_used[size_t(section)] = true;
}

void ProfileTimeline::end(cudaStream_t s) { CUDA_CHECK(cudaEventRecord(m_events[kProfSections], s)); }

void ProfileTimeline::accumulate() {
    for (size_t i = 0; i < m_order.size(); ++i) {
        const size_t next = i + 1 < m_order.size() ? size_t(m_order[i + 1]) : size_t(kProfSections);
        float ms = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, m_events[size_t(m_order[i])], m_events[next]));
        m_ms[size_t(m_order[i])] += ms;
    }
    m_order.clear();
}

// ---- GpuNet ----

namespace {

constexpr int kUnits = 512;  // dense_1

}  // namespace

GpuNet::GpuNet(GpuContext& ctx, const NetConfig& cfg, int batch, bool training, bool nhwc, bool tf32,
               bool deterministic, const ParamTable& table, float* weights, float* grads, bool fused)
    : m_ctx(ctx), m_cfg(cfg), m_batch(batch), m_training(training), m_fused(fused),
      m_firstFused(fused && training && cfg.c <= kFirstLayerMaxIn), m_table(table), m_weights(weights),
      m_grads(grads) {
    TD_CHECK(!training || grads, "GpuNet: training needs a gradient buffer");
    TD_CHECK(table.all().size() == 12, "GpuNet: unexpected parameter table");
    const int B = batch;
    auto conv = [&](int i, const Tensor4& in, int outC, bool same, bool needDx) {
        CudnnConv::Config c;
        c.batch = B, c.inC = in.c, c.h = in.h, c.w = in.w, c.outC = outC, c.same = same;
        c.nhwc = nhwc, c.tf32 = tf32, c.deterministic = deterministic;
        c.backward = training, c.needDx = training && needDx;
        m_conv[i] = std::make_unique<CudnnConv>(c);
        return m_conv[i]->outShape();
    };
    auto pooled = [&](const Tensor4& t) {
        TD_CHECK(t.h >= 2 && t.w >= 2, "max pooling: input ", t.h, "x", t.w, " too small");
        return Tensor4::make(B, t.c, t.h / 2, t.w / 2, nhwc);
    };
    m_x = Tensor4::make(B, cfg.c, cfg.h, cfg.w, nhwc);
    m_a1 = conv(0, m_x, 32, true, false);
    m_a2 = conv(1, m_a1, 32, false, true);
    m_p1 = pooled(m_a2);
    m_a3 = conv(2, m_p1, 64, true, true);
    m_a4 = conv(3, m_a3, 64, false, true);
    m_p2 = pooled(m_a4);
    m_flat = m_p2.c * m_p2.h * m_p2.w;
    TD_CHECK(size_t(m_flat) * kUnits == table.all()[8].size, "GpuNet: dense_1 kernel size mismatch");
    m_f1 = Tensor4::matrix(B, kUnits);
    m_dense[0] = std::make_unique<CublasDense>(B, m_flat, kUnits, tf32);
    m_dense[1] = std::make_unique<CublasDense>(B, kUnits, cfg.classes, tf32);

    m_input.allocate(size_t(m_x.size()));
    m_labels.allocate(size_t(B));
    m_act1.allocate(size_t(m_a1.size()));
    m_act2.allocate(size_t(m_a2.size()));
    m_pool1.allocate(size_t(m_p1.size()));
    m_act3.allocate(size_t(m_a3.size()));
    m_act4.allocate(size_t(m_a4.size()));
    m_pool2.allocate(size_t(m_p2.size()));
    m_fc1.allocate(size_t(m_f1.size()));
    m_logits.allocate(size_t(B) * cfg.classes);
    if (training) {
        m_gAct1.allocate(m_act1.size());
        m_gAct2.allocate(m_act2.size());
        m_gPool1.allocate(m_pool1.size());
        m_gAct3.allocate(m_act3.size());
        m_gAct4.allocate(m_act4.size());
        m_gPool2.allocate(m_pool2.size());
        m_gFc1.allocate(m_fc1.size());
        m_gLogits.allocate(m_logits.size());
        const Tensor4 sites[5] = {m_f1, m_a4, m_a3, m_a2, m_a1};
        for (int i = 0; i < 5; ++i) m_partials[i].allocate(ReduceScratch::partialsFloats(sites[i]));
    }
    m_tickets.allocate(7);
    if (fused) {
        m_headRows.allocate(size_t(2) * size_t(B));
        m_layers[0] = GemmLayer::conv(m_a1, 32, false);
        m_layers[1] = GemmLayer::conv(m_p1, 64, true);
        m_layers[2] = GemmLayer::conv(m_a3, 64, false);
        m_layers[3] = GemmLayer::denseLayer(B, m_flat, kUnits);
        auto allocate = [&](int site, const GemmScratchSize& sz) {
            m_gemmPartials[site].allocate(sz.partials);
            m_gemmTickets[site].allocate(sz.tickets);
        };
        if (training)
            for (int i = 0; i < 4; ++i) allocate(i, layerBackwardScratch(m_layers[i], i < 3));
        allocate(4, layerForwardScratch(m_layers[3]));
    }
    if (m_firstFused) m_firstPartials.allocate(firstLayerPartialsFloats(m_a1, cfg.c));
}

void GpuNet::selectAlgorithms() {
    // Scratch for the measurements; the chosen algorithms may use at most this much.
    size_t scratchBytes = size_t(256) << 20;
    DeviceBuffer<char> scratch;
    while (true) {
        void* p = nullptr;
        if (cudaMalloc(&p, scratchBytes) == cudaSuccess) {
            cudaFree(p);
            scratch.allocate(scratchBytes);
            break;
        }
        cudaGetLastError();
        TD_CHECK(scratchBytes > (size_t(8) << 20), "cannot allocate 8 MiB of GPU memory for cuDNN's workspace");
        scratchBytes /= 2;
    }
    const float* ins[4] = {m_input.get(), m_act1.get(), m_pool1.get(), m_act3.get()};
    float* outs[4] = {m_act1.get(), m_act2.get(), m_act3.get(), m_act4.get()};
    float* gIns[4] = {nullptr, m_gAct1.get(), m_gPool1.get(), m_gAct3.get()};
    float* gOuts[4] = {m_gAct1.get(), m_gAct2.get(), m_gAct3.get(), m_gAct4.get()};
    size_t wsMain = 0, wsSide = 0;
    for (int i = 0; i < 4; ++i) {
        if (m_fused && i > 0) continue;  // own kernels: nothing to choose
        float* dw = m_training ? G(2 * i) : nullptr;
        m_conv[i]->selectAlgorithms(m_ctx.dnnMain(), m_ctx.dnnSide(), ins[i], W(2 * i), outs[i], gOuts[i], gIns[i], dw,
                                    scratch.get(), scratch.bytes());
        wsMain = std::max(wsMain, m_conv[i]->forwardWorkspace());
        wsSide = std::max(wsSide, m_conv[i]->backwardFilterWorkspace());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    scratch.release();
    m_ctx.reserveWorkspaces(std::max<size_t>(wsMain, 256), std::max<size_t>(wsSide, 256));
    // The measurements wrote into the gradient buffer: start from zero.
    if (m_training) {
        const size_t total = m_table.totalFloats();
        CUDA_CHECK(cudaMemset(m_grads, 0, total * sizeof(float)));
        CUDA_CHECK(cudaDeviceSynchronize());  // the legacy stream: the step's streams do not wait for it
    }
}

std::vector<std::pair<std::string, std::vector<float>>> GpuNet::layerOutputs() const {
    const std::pair<const char*, std::pair<const DeviceBuffer<float>*, Tensor4>> layers[] = {
        {"conv2d_1", {&m_act1, m_a1}}, {"conv2d_2", {&m_act2, m_a2}}, {"max_pooling2d_1", {&m_pool1, m_p1}},
        {"conv2d_3", {&m_act3, m_a3}}, {"conv2d_4", {&m_act4, m_a4}}, {"max_pooling2d_2", {&m_pool2, m_p2}},
        {"dense_1", {&m_fc1, m_f1}}};
    std::vector<std::pair<std::string, std::vector<float>>> out;
    for (const auto& [name, buf] : layers) out.emplace_back(name, activationToNhwc(buf.first->toHost().data(), buf.second));
    return out;
}

void GpuNet::forward(const ForwardArgs& a, ProfileTimeline* prof) {
    const cudaStream_t s = m_ctx.main();
    const cudnnHandle_t dnn = m_ctx.dnnMain();
    void* ws = m_ctx.wsMain();
    const size_t wsBytes = m_ctx.wsMainBytes();
    const DropoutArgs none;
    const DropoutArgs* drop = a.train ? a.drop : nullptr;
    auto mark = [&](int section) {
        if (prof) prof->mark(section, s);
    };

    mark(kProfConv1);
    if (a.assemble) {
        TD_CHECK(m_firstFused, "GpuNet: batch assembly inside conv2d_1 needs the fused path's first layer");
        FirstLayerArgs f;
        f.batch = *a.assemble;
        f.w = W(0);
        f.bias = W(1);
        f.y = m_act1.get();
        firstLayerForward(f, s);
    } else {
        m_conv[0]->forward(dnn, m_input.get(), W(0), m_act1.get(), ws, wsBytes);
        biasActivation(m_act1.get(), m_a1, W(1), true, none, s);
    }
    if (m_fused) {
        mark(kProfConv2);
        ownForward(0, m_act1.get(), 2, 3, m_act2.get(), m_pool1.get(), m_p1, drop ? drop[0] : none);
        mark(kProfConv3);
        ownForward(1, m_pool1.get(), 4, 5, m_act3.get(), nullptr, Tensor4{}, none);
        mark(kProfConv4);
        ownForward(2, m_act3.get(), 6, 7, m_act4.get(), m_pool2.get(), m_p2, drop ? drop[1] : none);
        mark(kProfDense1);
        ownForward(3, m_pool2.get(), 8, -1, m_fc1.get(), nullptr, Tensor4{}, none);
        mark(kProfLoss);
        forwardHead(a);
        return;
    }
    mark(kProfConv2);
    m_conv[1]->forward(dnn, m_act1.get(), W(2), m_act2.get(), ws, wsBytes);
    biasActivation(m_act2.get(), m_a2, W(3), true, none, s);
    mark(kProfPool1);
    maxPoolForward(m_act2.get(), m_a2, m_pool1.get(), m_p1, drop ? drop[0] : none, s);
    mark(kProfConv3);
    m_conv[2]->forward(dnn, m_pool1.get(), W(4), m_act3.get(), ws, wsBytes);
    biasActivation(m_act3.get(), m_a3, W(5), true, none, s);
    mark(kProfConv4);
    m_conv[3]->forward(dnn, m_act3.get(), W(6), m_act4.get(), ws, wsBytes);
    biasActivation(m_act4.get(), m_a4, W(7), true, none, s);
    mark(kProfPool2);
    maxPoolForward(m_act4.get(), m_a4, m_pool2.get(), m_p2, drop ? drop[1] : none, s);
    // Flatten is free: pool2's output is (N, flat) row-major in either layout; in NCHW the
    // device layout of dense_1's kernel has its rows in NCHW order (layout.cpp).
    mark(kProfDense1);
    m_dense[0]->forward(m_ctx.blasMain(), m_pool2.get(), W(8), m_fc1.get());
    biasActivation(m_fc1.get(), m_f1, W(9), true, drop ? drop[2] : none, s);
    mark(kProfDense2);
    m_dense[1]->forward(m_ctx.blasMain(), m_fc1.get(), W(10), m_logits.get());
    mark(kProfLoss);
    LossArgs l;
    l.logits = m_logits.get();
    l.bias = W(11);
    l.labels = m_labels.get();
    l.batch = m_batch;
    l.valid = a.valid;
    l.classes = m_cfg.classes;
    l.probs = a.probs;
    l.accum = a.accum;
    if (a.train) {
        TD_CHECK(m_training, "GpuNet: training forward on an inference network");
        l.grad = m_gLogits.get();
        l.dbias = G(11);
        l.extras = m_grads + m_table.totalFloats();  // rides along in the all-reduce
    }
    softmaxLoss(l, s);
}

// dense_1's activation, dense_2, the loss, and in training dense_2's backward and the
// gradient into dense_1 (with its bias gradient): one kernel. GpuNet::backward goes on from
// dense_1's GEMMs.
void GpuNet::forwardHead(const ForwardArgs& a) {
    HeadArgs h;
    h.fc1 = m_fc1.get();
    h.b1 = W(9);
    h.drop = a.train ? a.drop[2] : DropoutArgs{};
    h.units = kUnits;
    h.w2 = W(10);
    h.b2 = W(11);
    h.labels = m_labels.get();
    h.batch = m_batch;
    h.valid = a.valid;
    h.classes = m_cfg.classes;
    h.probs = a.probs;
    h.accum = a.accum;
    if (a.train) {
        TD_CHECK(m_training, "GpuNet: training forward on an inference network");
        h.extras = m_grads + m_table.totalFloats();  // rides along in the all-reduce
        h.gLogits = m_gLogits.get();
        h.dW2 = G(10);
        h.db2 = G(11);
        h.gFc1 = m_gFc1.get();
        h.db1 = G(9);
    }
    h.rows = m_headRows.get();
    h.ticket = m_tickets.get() + 5;
    denseHead(h, m_ctx.main());
}

void GpuNet::backward(const DropoutArgs drop[3], const std::function<void()>& denseGradsReady,
                      ProfileTimeline* prof) {
    TD_CHECK(m_training, "GpuNet: backward on an inference network");
    const cudaStream_t s = m_ctx.main(), side = m_ctx.side();
    const cudnnHandle_t dnn = m_ctx.dnnMain(), dnnSide = m_ctx.dnnSide();
    void* ws = m_ctx.wsMain();
    const size_t wsBytes = m_ctx.wsMainBytes();
    void* wsSide = m_ctx.wsSide();
    const size_t wsSideBytes = m_ctx.wsSideBytes();
    auto mark = [&](int section) {
        if (prof) prof->mark(section, s);
    };
    auto toSide = [&]() { m_ctx.dependOn(side, s); };  // side may read what main produced so far

    if (m_fused) {
        backwardFused(drop, denseGradsReady, prof);
        return;
    }
    mark(kProfBwdDense2);
    toSide();
    m_dense[1]->backwardWeights(m_ctx.blasSide(), m_fc1.get(), m_gLogits.get(), G(10));
    m_dense[1]->backwardData(m_ctx.blasMain(), W(10), m_gLogits.get(), m_gFc1.get());
    mark(kProfBwdDense1);
    // Through dropout_3 and the ReLU: zero where the output was dropped or not positive.
    maskBiasGrad(m_gFc1.get(), m_fc1.get(), m_f1, true, drop[2].scale, G(9), scratch(0), s);
    toSide();
    m_dense[0]->backwardWeights(m_ctx.blasSide(), m_pool2.get(), m_gFc1.get(), G(8));
    m_dense[0]->backwardData(m_ctx.blasMain(), W(8), m_gFc1.get(), m_gPool2.get());
    if (denseGradsReady) denseGradsReady();
    mark(kProfBwdPool2);
    maxPoolBackward(m_act4.get(), m_a4, m_pool2.get(), m_gPool2.get(), m_p2, m_gAct4.get(), drop[1].scale, s);
    mark(kProfBwdConv4);
    maskBiasGrad(m_gAct4.get(), m_act4.get(), m_a4, false, 1.0f, G(7), scratch(1), s);  // ReLU mask applied by the pool
    toSide();
    m_conv[3]->backwardFilter(dnnSide, m_act3.get(), m_gAct4.get(), G(6), wsSide, wsSideBytes);
    m_conv[3]->backwardData(dnn, W(6), m_gAct4.get(), m_gAct3.get(), ws, wsBytes);
    mark(kProfBwdConv3);
    maskBiasGrad(m_gAct3.get(), m_act3.get(), m_a3, true, 1.0f, G(5), scratch(2), s);
    toSide();
    m_conv[2]->backwardFilter(dnnSide, m_pool1.get(), m_gAct3.get(), G(4), wsSide, wsSideBytes);
    m_conv[2]->backwardData(dnn, W(4), m_gAct3.get(), m_gPool1.get(), ws, wsBytes);
    mark(kProfBwdPool1);
    maxPoolBackward(m_act2.get(), m_a2, m_pool1.get(), m_gPool1.get(), m_p1, m_gAct2.get(), drop[0].scale, s);
    mark(kProfBwdConv2);
    maskBiasGrad(m_gAct2.get(), m_act2.get(), m_a2, false, 1.0f, G(3), scratch(3), s);
    toSide();
    m_conv[1]->backwardFilter(dnnSide, m_act1.get(), m_gAct2.get(), G(2), wsSide, wsSideBytes);
    m_conv[1]->backwardData(dnn, W(2), m_gAct2.get(), m_gAct1.get(), ws, wsBytes);
    mark(kProfBwdConv1);
    maskBiasGrad(m_gAct1.get(), m_act1.get(), m_a1, true, 1.0f, G(1), scratch(4), s);
    toSide();
    m_conv[0]->backwardFilter(dnnSide, m_input.get(), m_gAct1.get(), G(0), wsSide, wsSideBytes);
    m_ctx.dependOn(s, side);  // join: every gradient is final on main from here on
}

// The fused path's backward on the main stream alone: one kernel per layer (data gradient
// into the layer below and the weight + bias gradients side by side in one grid), so there
// is nothing for a second stream to overlap. dense_1's gradients are final after its kernel.
void GpuNet::backwardFused(const DropoutArgs drop[3], const std::function<void()>& denseGradsReady,
                           ProfileTimeline* prof) {
    const cudaStream_t s = m_ctx.main();
    auto mark = [&](int section) {
        if (prof) prof->mark(section, s);
    };
    mark(kProfBwdDense1);
    ownBackward(3, m_pool2.get(), 8, m_gFc1.get(), false, m_gAct4.get(), GradInput::kPool, m_act4.get(), m_a4,
                drop[1].scale);
    if (denseGradsReady) denseGradsReady();
    mark(kProfBwdConv4);
    ownBackward(2, m_act3.get(), 6, m_gAct4.get(), true, m_gAct3.get(), GradInput::kRelu, nullptr, Tensor4{}, 1.0f);
    mark(kProfBwdConv3);
    ownBackward(1, m_pool1.get(), 4, m_gAct3.get(), true, m_gAct2.get(), GradInput::kPool, m_act2.get(), m_a2,
                drop[0].scale);
    mark(kProfBwdConv2);
    ownBackward(0, m_act1.get(), 2, m_gAct2.get(), true, m_gAct1.get(), GradInput::kNone, nullptr, Tensor4{}, 1.0f);
    mark(kProfBwdConv1);
    if (m_firstFused) {
        firstLayerBackward(m_gAct1.get(), m_act1.get(), m_a1, m_input.get(), m_x, G(0), G(1), m_firstPartials.get(),
                           m_tickets.get() + 6, s);
    } else {
        maskBiasGrad(m_gAct1.get(), m_act1.get(), m_a1, true, 1.0f, G(1), scratch(4), s);
        m_conv[0]->backwardFilter(m_ctx.dnnMain(), m_input.get(), m_gAct1.get(), G(0), m_ctx.wsSide(),
                                  m_ctx.wsSideBytes());
    }
}

void GpuNet::ownForward(int i, const float* x, int w, int bias, float* y, float* p, const Tensor4& pt,
                        const DropoutArgs& drop) {
    LayerForwardArgs f;
    f.layer = m_layers[i];
    f.x = x, f.w = W(w), f.bias = bias >= 0 ? W(bias) : nullptr, f.y = y, f.p = p, f.pt = pt, f.drop = drop;
    f.partials = m_gemmPartials[4].get(), f.tickets = m_gemmTickets[4].get();
    layerForward(f, m_ctx.main());
}

void GpuNet::ownBackward(int i, const float* x, int w, const float* gy, bool bias, float* gx, GradInput through,
                         const float* pre, const Tensor4& preT, float dropScale) {
    LayerBackwardArgs b;
    b.layer = m_layers[i];
    b.x = x, b.w = W(w), b.gy = gy, b.dw = G(w), b.db = bias ? G(w + 1) : nullptr, b.gx = gx, b.through = through;
    b.pre = pre, b.preT = preT, b.dropScale = dropScale;
    b.partials = m_gemmPartials[i].get(), b.tickets = m_gemmTickets[i].get();
    layerBackward(b, m_ctx.main());
}

double GpuNet::trainFlopsPerImage() const {
    double f = 0;
    for (int i = 0; i < 4; ++i) f += m_conv[i]->forwardFlops() * (i == 0 ? 2 : 3);  // fwd, bwd-filter, bwd-data
    for (int i = 0; i < 2; ++i) f += m_dense[i]->forwardFlops() * 3;
    return f / m_batch;
}

std::string GpuNet::describeLayers() const {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const bool own = m_fused && (i > 0 || m_firstFused);
        s += cat(i ? "; " : "", "conv2d_", i + 1, ": ", own ? "own kernel (FP32)" : m_conv[i]->algorithms());
    }
    return s;
}

}  // namespace td::cuda
