#include "model/net.h"

#include "util/rng.h"
#include "util/timer.h"

namespace td {

Net::Net(const NetConfig& cfg) : m_cfg(cfg) {
    const int64_t N = cfg.batch;
    // Parameters in Keras order: conv2d_1..4, dense_1, dense_2 (kernel, bias each).
    m_params = makeParamTable(cfg);
    int ph = 0, pw = 0;
    pooledSize(cfg, &ph, &pw);
    const int64_t flat = int64_t(ph) * pw * 64;
    const size_t c1 = 0, c2 = 2, c3 = 4, c4 = 6, d1 = 8, d2 = 10;
    m_weights = allocFloats(m_params.totalFloats());
    m_grads = allocFloats(m_params.totalFloats() + kExtra);

    auto W = [&](size_t i) { return m_weights.get() + m_params.all()[i].offset; };
    auto G = [&](size_t i) { return m_grads.get() + m_params.all()[i].offset; };
    Ctx& ctx = m_ctx;

    m_input.dims = {N, cfg.c, cfg.h, cfg.w};
    DNNL_CHECK(m_input.val = memory(plain(m_input.dims, tag::nhwc), ctx.eng));
    DNNL_CHECK(m_input.grad = memory(plain(m_input.dims, tag::nhwc), ctx.eng));  // unused: no image gradient
    m_labels.resize(size_t(N));

    Conv2D::Config cc;
    cc.outChannels = 32;
    cc.needDiffSrc = false;
    cc.srcAny = false;  // first layer reads the NHWC images directly
    m_conv1 = std::make_unique<Conv2D>(ctx, "conv2d_1", m_input, cc, W(c1), W(c1 + 1), G(c1), G(c1 + 1));
    cc = Conv2D::Config{};
    cc.outChannels = 32;
    cc.samePadding = false;
    m_conv2 = std::make_unique<Conv2D>(ctx, "conv2d_2", m_conv1->out, cc, W(c2), W(c2 + 1), G(c2), G(c2 + 1));
    m_pool1 = std::make_unique<MaxPool2D>(ctx, "max_pooling2d_1", m_conv2->out);
    if (m_pool1->fuseInputReluBackward()) m_conv2->reluBackwardDoneByConsumer();
    m_drop1 = std::make_unique<Dropout>(m_pool1->out.val, 0.25f, N);
    cc = Conv2D::Config{};
    cc.outChannels = 64;
    m_conv3 = std::make_unique<Conv2D>(ctx, "conv2d_3", m_pool1->out, cc, W(c3), W(c3 + 1), G(c3), G(c3 + 1));
    cc.samePadding = false;
    m_conv4 = std::make_unique<Conv2D>(ctx, "conv2d_4", m_conv3->out, cc, W(c4), W(c4 + 1), G(c4), G(c4 + 1));
    m_pool2 = std::make_unique<MaxPool2D>(ctx, "max_pooling2d_2", m_conv4->out);
    if (m_pool2->fuseInputReluBackward()) m_conv4->reluBackwardDoneByConsumer();
    m_drop2 = std::make_unique<Dropout>(m_pool2->out.val, 0.25f, N);

    // Flatten: pool2 output reordered to NHWC, then viewed as (N, h*w*64).
    const memory::dims pd = m_pool2->out.dims;
    memory nhwcVal, nhwcGrad;
    DNNL_CHECK(nhwcVal = memory(plain(pd, tag::nhwc), ctx.eng));
    DNNL_CHECK(nhwcGrad = memory(plain(pd, tag::nhwc), ctx.eng));
    m_rFlatFwd.init(ctx, m_pool2->out.val, nhwcVal);
    m_rFlatBwd.init(ctx, nhwcGrad, m_pool2->out.grad);
    m_flat.dims = {N, flat};
    m_flat.val = memory(plain(m_flat.dims, tag::nc), ctx.eng, nhwcVal.get_data_handle());
    m_flat.grad = memory(plain(m_flat.dims, tag::nc), ctx.eng, nhwcGrad.get_data_handle());
    // Keep the NHWC memories alive through the views' handles: they are owned here.
    m_flatKeep[0] = nhwcVal;
    m_flatKeep[1] = nhwcGrad;

    m_dense1 = std::make_unique<Dense>(ctx, "dense_1", m_flat, 512, true, true, W(d1), W(d1 + 1), G(d1), G(d1 + 1));
    m_drop3 = std::make_unique<Dropout>(m_dense1->out.val, 0.5f, N);
    m_dense2 = std::make_unique<Dense>(ctx, "dense_2", m_dense1->out, cfg.classes, false, true, W(d2), W(d2 + 1),
                                       G(d2), G(d2 + 1));
    m_probs.resize(size_t(N) * cfg.classes);
    m_flatTiming.name = "flatten (reorders)";
    m_lossTiming.name = "softmax + loss";
    m_dropTiming.name = "dropout";
}

void Net::syncWeights() {
    m_conv1->syncWeights(m_ctx);
    m_conv2->syncWeights(m_ctx);
    m_conv3->syncWeights(m_ctx);
    m_conv4->syncWeights(m_ctx);
    m_dense1->syncWeights(m_ctx);
    m_dense2->syncWeights(m_ctx);
}

LossResult Net::forward(bool train, int valid, uint64_t dropoutKey, const uint64_t* positions) {
    const bool drop = train && m_cfg.dropout;
    m_conv1->forward(m_ctx);
    m_conv2->forward(m_ctx);
    m_pool1->forward(m_ctx);
    StepClock t;
    if (drop) m_drop1->forward(m_pool1->out.val, rng::key(dropoutKey, 1), positions);
    m_dropTiming.addFwd(t);
    m_conv3->forward(m_ctx);
    m_conv4->forward(m_ctx);
    m_pool2->forward(m_ctx);
    t.reset();
    if (drop) m_drop2->forward(m_pool2->out.val, rng::key(dropoutKey, 2), positions);
    m_dropTiming.addFwd(t);
    t.reset();
    m_rFlatFwd.run(m_ctx);
    m_flatTiming.addFwd(t);
    m_dense1->forward(m_ctx);
    t.reset();
    if (drop) m_drop3->forward(m_dense1->out.val, rng::key(dropoutKey, 3), positions);
    m_dropTiming.addFwd(t);
    m_dense2->forward(m_ctx);
    t.reset();
    float* g = train ? ptr(m_dense2->out.grad) : nullptr;
    LossResult r = softmaxCrossEntropy(ptr(m_dense2->out.val), m_labels.data(), m_cfg.batch, valid, m_cfg.classes,
                                       m_probs.data(), g);
    m_lossTiming.addFwd(t);
    m_lastTrain = train;
    return r;
}

void Net::backward() {
    TD_CHECK(m_lastTrain, "Net::backward without a training forward pass");
    const bool drop = m_cfg.dropout;
    m_dense2->backward(m_ctx);
    StepClock t;
    if (drop) m_drop3->backward(m_dense1->out.grad);
    m_dropTiming.addBwd(t);
    m_dense1->backward(m_ctx);
    t.reset();
    m_rFlatBwd.run(m_ctx);
    m_flatTiming.addBwd(t);
    t.reset();
    if (drop) m_drop2->backward(m_pool2->out.grad);
    m_dropTiming.addBwd(t);
    m_pool2->backward(m_ctx);
    m_conv4->backward(m_ctx);
    m_conv3->backward(m_ctx);
    t.reset();
    if (drop) m_drop1->backward(m_pool1->out.grad);
    m_dropTiming.addBwd(t);
    m_pool1->backward(m_ctx);
    m_conv2->backward(m_ctx);
    m_conv1->backward(m_ctx);
}

std::vector<std::pair<std::string, std::vector<float>>> Net::layerOutputs() {
    const std::pair<const char*, const Act*> layers[] = {
        {"conv2d_1", &m_conv1->out}, {"conv2d_2", &m_conv2->out}, {"max_pooling2d_1", &m_pool1->out},
        {"conv2d_3", &m_conv3->out}, {"conv2d_4", &m_conv4->out}, {"max_pooling2d_2", &m_pool2->out},
        {"dense_1", &m_dense1->out}};
    std::vector<std::pair<std::string, std::vector<float>>> out;
    for (const auto& [name, act] : layers) {
        const memory::dims& d = act->dims;
        size_t n = 1;
        for (memory::dim v : d) n *= size_t(v);
        std::vector<float> values(n);
        memory plainMem;
        DNNL_CHECK(plainMem = memory(plain(d, d.size() == 4 ? tag::nhwc : tag::nc), m_ctx.eng, values.data()));
        DNNL_CHECK(dnnl::reorder(act->val, plainMem).execute(m_ctx.stream, const_cast<memory&>(act->val), plainMem));
        m_ctx.stream.wait();
        out.emplace_back(name, std::move(values));
    }
    return out;
}

std::vector<const LayerTiming*> Net::timings() const {
    return {&m_conv1->timing, &m_conv2->timing, &m_pool1->timing, &m_conv3->timing, &m_conv4->timing,
            &m_pool2->timing, &m_flatTiming,    &m_dense1->timing, &m_dense2->timing, &m_dropTiming,
            &m_lossTiming};
}

void Net::beginStepTiming() {
    for (const LayerTiming* t : timings()) const_cast<LayerTiming*>(t)->beginStep();
}

void Net::endStepTiming() {
    for (const LayerTiming* t : timings()) const_cast<LayerTiming*>(t)->endStep(m_timedSteps == 0);
    ++m_timedSteps;
}

double Net::flopsPerTrainStep() const {
    double f = 0;
    for (const LayerTiming* t : timings()) f += t->fwdFlops + t->bwdFlops;
    return f;
}

}  // namespace td
