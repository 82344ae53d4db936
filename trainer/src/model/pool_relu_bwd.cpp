#include "model/pool_relu_bwd.h"

#include <algorithm>

#if defined(__x86_64__)
#include <immintrin.h>
#define TD_HAVE_AVX2_KERNEL 1
#endif

namespace td {

#if TD_HAVE_AVX2_KERNEL
namespace {

// One image's 8-channel group: every 2x2 window, then the rows/columns no window covers.
__attribute__((target("avx2"))) void poolReluGroup(const float* x, const float* dy, float* dx, ptrdiff_t xh,
                                                    ptrdiff_t xw, ptrdiff_t yh, ptrdiff_t yw, ptrdiff_t H,
                                                    ptrdiff_t W, ptrdiff_t PH, ptrdiff_t PW) {
    const __m256 zero = _mm256_setzero_ps();
    for (ptrdiff_t ph = 0; ph < PH; ++ph) {
        for (ptrdiff_t pw = 0; pw < PW; ++pw) {
            const ptrdiff_t i00 = 2 * ph * xh + 2 * pw * xw, i01 = i00 + xw;
            const ptrdiff_t i10 = i00 + xh, i11 = i10 + xw;
            const __m256 a = _mm256_loadu_ps(x + i00), b = _mm256_loadu_ps(x + i01);
            const __m256 c = _mm256_loadu_ps(x + i10), d = _mm256_loadu_ps(x + i11);
            const __m256 m = _mm256_max_ps(_mm256_max_ps(a, b), _mm256_max_ps(c, d));
            // The gradient flows only where the ReLU was active: the window's maximum > 0.
            const __m256 active = _mm256_cmp_ps(m, zero, _CMP_GT_OQ);
            const __m256 g = _mm256_and_ps(_mm256_loadu_ps(dy + ph * yh + pw * yw), active);
            // The first maximum in row-major order takes it: a, then b, c, d.
            const __m256 ea = _mm256_cmp_ps(a, m, _CMP_EQ_OQ);
            const __m256 eb = _mm256_andnot_ps(ea, _mm256_cmp_ps(b, m, _CMP_EQ_OQ));
            const __m256 taken = _mm256_or_ps(ea, eb);
            const __m256 ec = _mm256_andnot_ps(taken, _mm256_cmp_ps(c, m, _CMP_EQ_OQ));
            const __m256 ed = _mm256_andnot_ps(_mm256_or_ps(taken, ec), _mm256_cmp_ps(d, m, _CMP_EQ_OQ));
            _mm256_storeu_ps(dx + i00, _mm256_and_ps(g, ea));
            _mm256_storeu_ps(dx + i01, _mm256_and_ps(g, eb));
            _mm256_storeu_ps(dx + i10, _mm256_and_ps(g, ec));
            _mm256_storeu_ps(dx + i11, _mm256_and_ps(g, ed));
        }
        if (W > 2 * PW)  // odd width: the last column is in no window
            for (ptrdiff_t h = 2 * ph; h < 2 * ph + 2; ++h) _mm256_storeu_ps(dx + h * xh + (W - 1) * xw, zero);
    }
    if (H > 2 * PH)  // odd height: the last row
        for (ptrdiff_t w = 0; w < W; ++w) _mm256_storeu_ps(dx + (H - 1) * xh + w * xw, zero);
}

}  // namespace
#endif  // TD_HAVE_AVX2_KERNEL

bool PoolReluBackward::init(const memory::desc& in, const memory::desc& out) {
#if !TD_HAVE_AVX2_KERNEL
    (void)in, (void)out;
    return false;
#else
    if (!__builtin_cpu_supports("avx2")) return false;
    if (!channelStrides(in, &m_in) || !channelStrides(out, &m_out)) return false;
    const memory::dims d = in.dims(), o = out.dims();
    m_N = d[0], m_C = d[1], m_H = d[2], m_W = d[3], m_PH = o[2], m_PW = o[3];
    if (o[0] != m_N || o[1] != m_C || m_PH != m_H / 2 || m_PW != m_W / 2) return false;
    // nChw8c (oneDNN's AVX2 layout) or NHWC. Not nChw16c (AVX-512): there oneDNN's pooling
    // backward plus the ReLU pass took 0.41 ms where this took 0.56 (conv2d_2's output, 1 thread,
    // bench/trainer/pool_relu_ab.cpp); on nChw8c 0.72 against 0.65.
    if (m_in.block == 16 || m_out.block == 16) return false;
    return m_in.eightContiguous(m_C) && m_out.eightContiguous(m_C) && m_C % 8 == 0;
#endif
}

void PoolReluBackward::run(const float* inVal, const float* outGrad, float* inGrad) const {
#if TD_HAVE_AVX2_KERNEL
    const ptrdiff_t groups = m_N * (m_C / 8);
#pragma omp parallel for schedule(static)
    for (ptrdiff_t i = 0; i < groups; ++i) {
        const ptrdiff_t n = i / (m_C / 8), c = i % (m_C / 8) * 8;
        const ptrdiff_t xo = n * m_in.n + m_in.offset(c), yo = n * m_out.n + m_out.offset(c);
        poolReluGroup(inVal + xo, outGrad + yo, inGrad + xo, m_in.h, m_in.w, m_out.h, m_out.w, m_H, m_W, m_PH, m_PW);
    }
#else
    (void)inVal, (void)outGrad, (void)inGrad;
#endif
}

}  // namespace td
