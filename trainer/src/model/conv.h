#pragma once
// 3x3 stride-1 convolution with bias and optional fused ReLU ("same" or "valid").
#include "model/conv_bwd_weights.h"
#include "model/layer.h"

namespace td {

class Conv2D {
public:
    struct Config {
        int outChannels = 32;
        bool samePadding = true;
        bool relu = true;
        bool needDiffSrc = true;  // false for the first layer: no gradient w.r.t. the images
        bool srcAny = true;       // let oneDNN choose the input layout (false: use in.val's)
    };
    // w/b: canonical (HWIO, O) parameters; dw/db: where their gradients go.
    Conv2D(Ctx& ctx, const std::string& name, Act& in, const Config& cfg, float* w, float* b, float* dw,
           float* db);

    void syncWeights(Ctx& ctx);  // canonical weights -> kernel layouts (after each update)
    void forward(Ctx& ctx);
    void backward(Ctx& ctx);     // expects out.grad; writes in.grad (if needed), dw, db
    // The layer that consumes out applies this layer's ReLU backward to out.grad itself (the
    // max-pool's fused backward): backward() skips it.
    void reluBackwardDoneByConsumer() { m_reluBackwardDone = true; }

    Act out;
    LayerTiming timing;

private:
    Act& m_in;
    Config m_cfg;
    dnnl::convolution_forward m_fwd;
    dnnl::convolution_backward_data m_bwdData;
    dnnl::convolution_backward_weights m_bwdWeights;
    memory m_src;                 // input in the forward kernel's layout
    memory m_wCanon, m_wFwd, m_wBwd, m_bias;
    memory m_dwCanon, m_dwKernel, m_db;
    memory m_diffSrc;             // bwd-data output in its kernel layout
    std::string m_bwdDataImpl;
    // The hand-written AVX2 backward-weights where oneDNN's choice is its jit:avx2 kernel
    // (conv_bwd_weights.h); m_bwdWeights is not used then.
    ConvBwdWeightsAvx2 m_ownBwdWeights;
    bool m_useOwnBwdWeights = false;
    bool m_reluBackwardDone = false;
    Reorder m_rSrc, m_rWFwd, m_rWBwd, m_rDw, m_rDiffSrc;
};

}  // namespace td
