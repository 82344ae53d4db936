#pragma once
// The 2x2 stride-2 max-pool backward fused with the backward of the ReLU before it (issue #45):
// one pass writes d(pre-activation) = d(pool output) at the window's first maximum in row-major
// order (oneDNN's rule, and the GPU backend's) when that maximum is > 0, else 0. The same
// numbers as oneDNN's pooling backward followed by reluBackward, without the second pass over
// the convolution's whole output and its gradient (11 MB a step for conv2d_2 at batch 32).
#include "model/dnnl_util.h"

namespace td {

class PoolReluBackward {
public:
    // False where this CPU lacks AVX2 or the layouts are not nChw8c or NHWC with channels a
    // multiple of 8 (nChw16c, AVX-512's: oneDNN's two passes measured faster there): keep the
    // two passes then.
    bool init(const memory::desc& in, const memory::desc& out);
    // inVal: the pool's input (the ReLU's output); outGrad: d(pool output); inGrad: written whole.
    void run(const float* inVal, const float* outGrad, float* inGrad) const;

private:
    ChannelStrides m_in, m_out;
    ptrdiff_t m_N = 0, m_C = 0, m_H = 0, m_W = 0, m_PH = 0, m_PW = 0;
};

}  // namespace td
