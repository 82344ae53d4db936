#pragma once
// 2x2 stride-2 max pooling ("valid": odd edges dropped, as Keras does).
#include "model/layer.h"
#include "model/pool_relu_bwd.h"

namespace td {

class MaxPool2D {
public:
    MaxPool2D(Ctx& ctx, const std::string& name, Act& in);
    void forward(Ctx& ctx);
    void backward(Ctx& ctx);  // out.grad -> in.grad
    // The input is a ReLU's output: from now on backward() also applies that ReLU's backward
    // (one fused pass, pool_relu_bwd.h). False (nothing changes) where the fused kernel does not
    // run here, or TRAINDESK_POOL_RELU_BWD=separate asks for the two passes (A/B runs).
    bool fuseInputReluBackward();

    Act out;
    LayerTiming timing;

private:
    Act& m_in;
    dnnl::pooling_forward m_fwd;
    dnnl::pooling_backward m_bwd;
    memory m_workspace;
    PoolReluBackward m_fused;
    bool m_useFused = false;
};

}  // namespace td
