#pragma once
// Fully connected layer with bias and optional fused ReLU; input is 2-D (N, in).
#include "model/layer.h"

namespace td {

class Dense {
public:
    Dense(Ctx& ctx, const std::string& name, Act& in, int units, bool relu, bool needDiffSrc, float* w, float* b,
          float* dw, float* db);
    void syncWeights(Ctx& ctx);
    void forward(Ctx& ctx);
    void backward(Ctx& ctx);

    Act out;
    LayerTiming timing;

private:
    Act& m_in;
    bool m_relu, m_needDiffSrc;
    dnnl::inner_product_forward m_fwd;
    dnnl::inner_product_backward_data m_bwdData;
    dnnl::inner_product_backward_weights m_bwdWeights;
    memory m_wCanon, m_wFwd, m_wBwd, m_bias, m_dwCanon, m_dwKernel, m_db;
    Reorder m_rWFwd, m_rWBwd, m_rDw;
};

}  // namespace td
