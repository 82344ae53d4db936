#include "model/dense.h"

#include "model/elementwise.h"
#include "util/timer.h"

namespace td {

using namespace dnnl;

Dense::Dense(Ctx& ctx, const std::string& name, Act& in, int units, bool relu, bool needDiffSrc, float* w,
             float* b, float* dw, float* db)
    : m_in(in), m_relu(relu), m_needDiffSrc(needDiffSrc) {
    const memory::dim N = in.dims[0], I = in.dims[1], O = units;
    out.dims = {N, O};
    const memory::dims wDims{O, I};
    // Canonical layout is Keras' (in, out) kernel, i.e. oneDNN's "io".
    const memory::desc canon = plain(wDims, tag::io);
    const memory::desc dstMd = plain(out.dims, tag::nc);
    // The kernels work on the canonical weight layout itself when oneDNN has an optimised
    // implementation for it (gemm on AVX2 and AVX-512): then the weights need no reorder after
    // each update and the weight gradient none after each backward pass (dense_1 holds 94% of
    // the parameters: two or three 4.7 MB reorders a step otherwise, issue #45). A reference
    // kernel is never taken for that: then the layouts are oneDNN's choice, with reorders.
    auto optimised = [](const char* impl) { return std::string(impl).rfind("ref", 0) != 0; };
    primitive_attr attr;
    if (relu) {
        post_ops ops;
        ops.append_eltwise(1.0f, algorithm::eltwise_relu, 0.0f, 0.0f);
        attr.set_post_ops(ops);
    }
    inner_product_forward::primitive_desc fwdPd;
    for (const memory::desc& wMd : {canon, anyDesc(wDims)}) {
        auto fwdDesc = inner_product_forward::desc(prop_kind::forward_training, in.val.get_desc(), wMd,
                                                   plain({O}, tag::x), dstMd);
        DNNL_CHECK(fwdPd = inner_product_forward::primitive_desc(fwdDesc, attr, ctx.eng));
        if (optimised(fwdPd.impl_info_str())) break;
    }
    DNNL_CHECK(m_fwd = inner_product_forward(fwdPd));
    inner_product_backward_weights::primitive_desc bwPd;
    for (const memory::desc& wMd : {canon, anyDesc(wDims)}) {
        auto bwDesc = inner_product_backward_weights::desc(in.val.get_desc(), wMd, plain({O}, tag::x), dstMd);
        DNNL_CHECK(bwPd = inner_product_backward_weights::primitive_desc(bwDesc, ctx.eng, fwdPd));
        if (optimised(bwPd.impl_info_str())) break;
    }
    DNNL_CHECK(m_bwdWeights = inner_product_backward_weights(bwPd));

    DNNL_CHECK(out.val = memory(dstMd, ctx.eng));
    DNNL_CHECK(out.grad = memory(dstMd, ctx.eng));
    m_wCanon = memory(canon, ctx.eng, w);
    m_bias = memory(plain({O}, tag::x), ctx.eng, b);
    m_wFwd = Reorder::prepare(ctx, m_wCanon, fwdPd.weights_desc(), &m_rWFwd);
    m_dwCanon = memory(canon, ctx.eng, dw);
    m_db = memory(plain({O}, tag::x), ctx.eng, db);
    if (bwPd.diff_weights_desc() == canon) {
        m_dwKernel = m_dwCanon;
    } else {
        DNNL_CHECK(m_dwKernel = memory(bwPd.diff_weights_desc(), ctx.eng));
        m_rDw.init(ctx, m_dwKernel, m_dwCanon);
    }
    std::string bdImpl;
    if (needDiffSrc) {
        inner_product_backward_data::primitive_desc bdPd;
        // The forward's weight layout first: one copy for both passes (none with `canon`).
        for (const memory::desc& wMd : {fwdPd.weights_desc(), anyDesc(wDims)}) {
            auto bdDesc = inner_product_backward_data::desc(in.grad.get_desc(), wMd, dstMd);
            DNNL_CHECK(bdPd = inner_product_backward_data::primitive_desc(bdDesc, ctx.eng, fwdPd));
            if (optimised(bdPd.impl_info_str())) break;
        }
        DNNL_CHECK(m_bwdData = inner_product_backward_data(bdPd));
        if (bdPd.weights_desc() == m_wFwd.get_desc())
            m_wBwd = m_wFwd;
        else
            m_wBwd = Reorder::prepare(ctx, m_wCanon, bdPd.weights_desc(), &m_rWBwd);
        bdImpl = std::string(" / ") + bdPd.impl_info_str();
    }
    timing.name = name;
    timing.impl = std::string(fwdPd.impl_info_str()) + " / " + bwPd.impl_info_str() + bdImpl;
    timing.impl += (m_rWFwd.active() || m_rWBwd.active() || m_rDw.active()) ? " (weight reorders)" : " (plain weights)";
    timing.fwdFlops = 2.0 * N * I * O;
    timing.bwdFlops = (needDiffSrc ? 4.0 : 2.0) * N * I * O;
}

void Dense::syncWeights(Ctx& ctx) {
    m_rWFwd.run(ctx);
    m_rWBwd.run(ctx);
}

void Dense::forward(Ctx& ctx) {
    StepClock t;
    DNNL_CHECK(m_fwd.execute(ctx.stream, {{DNNL_ARG_SRC, m_in.val},
                                          {DNNL_ARG_WEIGHTS, m_wFwd},
                                          {DNNL_ARG_BIAS, m_bias},
                                          {DNNL_ARG_DST, out.val}}));
    timing.addFwd(t);
}

void Dense::backward(Ctx& ctx) {
    StepClock t;
    if (m_relu) reluBackward(out.val, out.grad);
    DNNL_CHECK(m_bwdWeights.execute(ctx.stream, {{DNNL_ARG_SRC, m_in.val},
                                                 {DNNL_ARG_DIFF_DST, out.grad},
                                                 {DNNL_ARG_DIFF_WEIGHTS, m_dwKernel},
                                                 {DNNL_ARG_DIFF_BIAS, m_db}}));
    m_rDw.run(ctx);
    if (m_needDiffSrc)
        DNNL_CHECK(m_bwdData.execute(ctx.stream, {{DNNL_ARG_DIFF_DST, out.grad},
                                                  {DNNL_ARG_WEIGHTS, m_wBwd},
                                                  {DNNL_ARG_DIFF_SRC, m_in.grad}}));
    timing.addBwd(t);
}

}  // namespace td
