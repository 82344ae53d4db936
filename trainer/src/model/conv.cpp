#include "model/conv.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "model/elementwise.h"
#include "util/timer.h"

namespace td {

using namespace dnnl;

Conv2D::Conv2D(Ctx& ctx, const std::string& name, Act& in, const Config& cfg, float* w, float* b, float* dw,
               float* db)
    : m_in(in), m_cfg(cfg) {
    const memory::dim N = in.dims[0], C = in.dims[1], H = in.dims[2], W = in.dims[3];
    const memory::dim O = cfg.outChannels, pad = cfg.samePadding ? 1 : 0;
    const memory::dim OH = H + 2 * pad - 2, OW = W + 2 * pad - 2;
    TD_CHECK(OH > 0 && OW > 0, name, ": input ", H, "x", W, " too small for a 3x3 valid convolution");
    const memory::dims strides{1, 1}, padding{pad, pad};
    const memory::dims wDims{O, C, 3, 3};
    out.dims = {N, O, OH, OW};

    primitive_attr attr;
    if (cfg.relu) {
        post_ops ops;
        ops.append_eltwise(1.0f, algorithm::eltwise_relu, 0.0f, 0.0f);
        attr.set_post_ops(ops);
    }
    // Layout candidates, best first. oneDNN falls back to a slow reference kernel for some
    // combinations (e.g. NHWC 3-channel images into a blocked output), so take the first
    // candidate that gets an optimised implementation; the input is reordered to match.
    std::vector<memory::desc> srcCandidates;
    if (!cfg.srcAny) srcCandidates.push_back(in.val.get_desc());
    srcCandidates.push_back(anyDesc(in.dims));
    srcCandidates.push_back(plain(in.dims, tag::nchw));
    convolution_forward::primitive_desc fwdPd;
    for (const memory::desc& srcMd : srcCandidates) {
        auto fwdDesc = convolution_forward::desc(prop_kind::forward_training, algorithm::convolution_direct, srcMd,
                                                 anyDesc(wDims), plain({O}, tag::x), anyDesc(out.dims), strides,
                                                 padding, padding);
        DNNL_CHECK(fwdPd = convolution_forward::primitive_desc(fwdDesc, attr, ctx.eng));
        if (std::string(fwdPd.impl_info_str()).rfind("ref", 0) != 0) break;
    }
    DNNL_CHECK(m_fwd = convolution_forward(fwdPd));

    auto bdDesc = convolution_backward_data::desc(algorithm::convolution_direct, fwdPd.src_desc(), anyDesc(wDims),
                                                  fwdPd.dst_desc(), strides, padding, padding);
    auto bwDesc = convolution_backward_weights::desc(algorithm::convolution_direct, fwdPd.src_desc(),
                                                     anyDesc(wDims), plain({O}, tag::x), fwdPd.dst_desc(),
                                                     strides, padding, padding);
    convolution_backward_weights::primitive_desc bwPd;
    DNNL_CHECK(bwPd = convolution_backward_weights::primitive_desc(bwDesc, ctx.eng, fwdPd));
    std::string bwdWeightsImpl = bwPd.impl_info_str();
    // oneDNN 2.6's AVX2 backward-weights runs at 41-74% of the FMA peak; the own kernel at
    // 85-87% (bench/trainer/bwd_weights_ab.cpp), and far above oneDNN's reference kernel, its
    // choice for some layouts (NHWC single-channel images). On AVX-512 oneDNN's optimised
    // kernel is kept (twice the vector width). TRAINDESK_CONV_BWD_WEIGHTS=onednn keeps
    // oneDNN's everywhere, for A/B runs.
    const char* choice = std::getenv("TRAINDESK_CONV_BWD_WEIGHTS");
    const bool ownAllowed = !(choice && std::string(choice) == "onednn");
    const bool oneDnnWeak = bwdWeightsImpl == "jit:avx2" || bwdWeightsImpl.rfind("ref", 0) == 0;
    m_useOwnBwdWeights =
        ownAllowed && oneDnnWeak && m_ownBwdWeights.init(fwdPd.src_desc(), fwdPd.dst_desc(), int(pad));
    if (m_useOwnBwdWeights)
        bwdWeightsImpl = "own:avx2";
    else
        DNNL_CHECK(m_bwdWeights = convolution_backward_weights(bwPd));

    DNNL_CHECK(out.val = memory(fwdPd.dst_desc(), ctx.eng));
    DNNL_CHECK(out.grad = memory(fwdPd.dst_desc(), ctx.eng));
    m_src = Reorder::prepare(ctx, in.val, fwdPd.src_desc(), &m_rSrc);

    m_wCanon = memory(plain(wDims, tag::hwio), ctx.eng, w);
    m_bias = memory(plain({O}, tag::x), ctx.eng, b);
    m_wFwd = Reorder::prepare(ctx, m_wCanon, fwdPd.weights_desc(), &m_rWFwd);
    m_dwCanon = memory(plain(wDims, tag::hwio), ctx.eng, dw);
    m_db = memory(plain({O}, tag::x), ctx.eng, db);
    if (m_useOwnBwdWeights || bwPd.diff_weights_desc() == m_dwCanon.get_desc()) {
        m_dwKernel = m_dwCanon;
    } else {
        DNNL_CHECK(m_dwKernel = memory(bwPd.diff_weights_desc(), ctx.eng));
        m_rDw.init(ctx, m_dwKernel, m_dwCanon);
    }

    if (cfg.needDiffSrc) {
        convolution_backward_data::primitive_desc bdPd;
        DNNL_CHECK(bdPd = convolution_backward_data::primitive_desc(bdDesc, ctx.eng, fwdPd));
        DNNL_CHECK(m_bwdData = convolution_backward_data(bdPd));
        // Backward-data often wants the forward layout: share that copy then.
        if (bdPd.weights_desc() == m_wFwd.get_desc())
            m_wBwd = m_wFwd;
        else
            m_wBwd = Reorder::prepare(ctx, m_wCanon, bdPd.weights_desc(), &m_rWBwd);
        m_bwdDataImpl = bdPd.impl_info_str();
        if (bdPd.diff_src_desc() == in.grad.get_desc()) {
            m_diffSrc = in.grad;
        } else {
            DNNL_CHECK(m_diffSrc = memory(bdPd.diff_src_desc(), ctx.eng));
            m_rDiffSrc.init(ctx, m_diffSrc, in.grad);
        }
    }

    timing.name = name;
    timing.impl = std::string(fwdPd.impl_info_str()) + " / " + bwdWeightsImpl +
                  (cfg.needDiffSrc ? " / " + m_bwdDataImpl : std::string());
    const double macs = double(N) * O * OH * OW * C * 9;
    timing.fwdFlops = 2 * macs;
    timing.bwdFlops = (cfg.needDiffSrc ? 4 : 2) * macs;
}

void Conv2D::syncWeights(Ctx& ctx) {
    m_rWFwd.run(ctx);
    m_rWBwd.run(ctx);
}

void Conv2D::forward(Ctx& ctx) {
    StepClock t;
    m_rSrc.run(ctx);
    DNNL_CHECK(m_fwd.execute(ctx.stream, {{DNNL_ARG_SRC, m_src},
                                          {DNNL_ARG_WEIGHTS, m_wFwd},
                                          {DNNL_ARG_BIAS, m_bias},
                                          {DNNL_ARG_DST, out.val}}));
    timing.addFwd(t);
}

void Conv2D::backward(Ctx& ctx) {
    StepClock t;
    // Without a data gradient the own backward-weights is out.grad's only reader: it applies the
    // ReLU backward as it reads (one pass over the layer's output less; out.grad stays unmasked).
    const bool reluInKernel = m_useOwnBwdWeights && !m_cfg.needDiffSrc && m_cfg.relu && !m_reluBackwardDone;
    if (m_cfg.relu && !m_reluBackwardDone && !reluInKernel) reluBackward(out.val, out.grad);
    if (m_useOwnBwdWeights) {
        m_ownBwdWeights.run(ptr(m_src), ptr(out.grad), ptr(m_dwCanon), ptr(m_db),
                            reluInKernel ? ptr(out.val) : nullptr);
    } else {
        DNNL_CHECK(m_bwdWeights.execute(ctx.stream, {{DNNL_ARG_SRC, m_src},
                                                     {DNNL_ARG_DIFF_DST, out.grad},
                                                     {DNNL_ARG_DIFF_WEIGHTS, m_dwKernel},
                                                     {DNNL_ARG_DIFF_BIAS, m_db}}));
        m_rDw.run(ctx);
    }
    if (m_cfg.needDiffSrc) {
        DNNL_CHECK(m_bwdData.execute(ctx.stream, {{DNNL_ARG_DIFF_DST, out.grad},
                                                  {DNNL_ARG_WEIGHTS, m_wBwd},
                                                  {DNNL_ARG_DIFF_SRC, m_diffSrc}}));
        m_rDiffSrc.run(ctx);
    }
    timing.addBwd(t);
}

}  // namespace td
