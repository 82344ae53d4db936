#pragma once
// 2x2 stride-2 max pooling ("valid": odd edges dropped, as Keras does).
#include "model/layer.h"

namespace td {

class MaxPool2D {
public:
    MaxPool2D(Ctx& ctx, const std::string& name, Act& in);
    void forward(Ctx& ctx);
    void backward(Ctx& ctx);  // out.grad -> in.grad

    Act out;
    LayerTiming timing;

private:
    Act& m_in;
    dnnl::pooling_forward m_fwd;
    dnnl::pooling_backward m_bwd;
    memory m_workspace;
};

}  // namespace td
