#include "model/pool.h"

#include <cstdlib>
#include <string>

#include "util/timer.h"

namespace td {

using namespace dnnl;

MaxPool2D::MaxPool2D(Ctx& ctx, const std::string& name, Act& in) : m_in(in) {
    const memory::dim N = in.dims[0], C = in.dims[1], H = in.dims[2], W = in.dims[3];
    TD_CHECK(H >= 2 && W >= 2, name, ": input ", H, "x", W, " too small for 2x2 pooling");
    out.dims = {N, C, H / 2, W / 2};
    const memory::dims k{2, 2}, s{2, 2}, padL{0, 0};
    // With an odd size the last row/column is simply never covered (Keras "valid").
    const memory::dims padR{0, 0};
    const memory::desc dstMd(out.dims, dt::f32, tag::any);
    auto fwdDesc = pooling_forward::desc(prop_kind::forward_training, algorithm::pooling_max, in.val.get_desc(),
                                         dstMd, s, k, padL, padR);
    pooling_forward::primitive_desc fwdPd;
    DNNL_CHECK(fwdPd = pooling_forward::primitive_desc(fwdDesc, ctx.eng));
    DNNL_CHECK(m_fwd = pooling_forward(fwdPd));
    auto bwdDesc = pooling_backward::desc(algorithm::pooling_max, in.grad.get_desc(), fwdPd.dst_desc(), s, k, padL,
                                          padR);
    pooling_backward::primitive_desc bwdPd;
    DNNL_CHECK(bwdPd = pooling_backward::primitive_desc(bwdDesc, ctx.eng, fwdPd));
    DNNL_CHECK(m_bwd = pooling_backward(bwdPd));
    DNNL_CHECK(out.val = memory(fwdPd.dst_desc(), ctx.eng));
    DNNL_CHECK(out.grad = memory(fwdPd.dst_desc(), ctx.eng));
    DNNL_CHECK(m_workspace = memory(fwdPd.workspace_desc(), ctx.eng));
    timing.name = name;
    timing.impl = std::string(fwdPd.impl_info_str());
}

void MaxPool2D::forward(Ctx& ctx) {
    StepClock t;
    DNNL_CHECK(m_fwd.execute(ctx.stream,
                             {{DNNL_ARG_SRC, m_in.val}, {DNNL_ARG_DST, out.val}, {DNNL_ARG_WORKSPACE, m_workspace}}));
    timing.addFwd(t);
}

bool MaxPool2D::fuseInputReluBackward() {
    const char* choice = std::getenv("TRAINDESK_POOL_RELU_BWD");
    if (choice && std::string(choice) == "separate") return false;
    m_useFused = m_fused.init(m_in.val.get_desc(), out.val.get_desc());
    if (m_useFused) timing.impl += " / own:avx2 (with the ReLU backward)";
    return m_useFused;
}

void MaxPool2D::backward(Ctx& ctx) {
    StepClock t;
    if (m_useFused) {
        m_fused.run(ptr(m_in.val), ptr(out.grad), ptr(m_in.grad));
    } else {
        DNNL_CHECK(m_bwd.execute(ctx.stream, {{DNNL_ARG_DIFF_DST, out.grad},
                                              {DNNL_ARG_DIFF_SRC, m_in.grad},
                                              {DNNL_ARG_WORKSPACE, m_workspace}}));
    }
    timing.addBwd(t);
}

}  // namespace td
