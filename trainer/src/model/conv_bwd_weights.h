#pragma once
// Backward-weights of the 3x3 stride-1 convolutions, hand-written for AVX2 (issue #45).
// oneDNN 2.6's jit:avx2 backward-weights runs these layers at 41-74% of the FMA peak (its
// forward and backward-data at 81-89%); this kernel treats the weight gradient as the GEMM it
// is, dW[(kh,kw,ic)][oc] = sum over (n,oh,ow) of src[n][ic][oh+kh][ow+kw] * dDst[n][oc][oh][ow],
// with 6 x 16 register tiles of dW, and writes the gradient straight into the canonical HWIO
// buffer (no reorder after it) together with the bias gradient.
//
// It reads src and dDst in the layouts oneDNN chose (nChw8c/nChw16c, nhwc or nchw for src;
// channel-contiguous groups of 8 for dDst). Each dW element is summed by one thread in a
// fixed order, so the result does not depend on the thread count.
#include <cstddef>
#include <vector>

#include "model/dnnl_util.h"

namespace td {

class ConvBwdWeightsAvx2 {
public:
    // False (and the caller keeps oneDNN's primitive) where this CPU lacks AVX2/FMA or the
    // layouts/shapes are not ones it handles (outChannels not a multiple of 16, ...).
    bool init(const memory::desc& src, const memory::desc& diffDst, int pad);
    // dw: HWIO (3, 3, C, O); db: (O). Overwrites both. reluOut (optional, dDst's layout): the
    // layer's ReLU output when its ReLU backward has not been applied to diffDst: dDst then
    // counts only where reluOut > 0 (for a layer without a data gradient: no separate pass).
    void run(const float* src, const float* diffDst, float* dw, float* db, const float* reluOut = nullptr) const;

private:
    bool m_ok = false;
    int m_pad = 0;
    ptrdiff_t m_N = 0, m_C = 0, m_H = 0, m_W = 0, m_O = 0, m_OH = 0, m_OW = 0;
    ChannelStrides m_src, m_dst;
    int m_rowsPerChunk = 1;
};

}  // namespace td
