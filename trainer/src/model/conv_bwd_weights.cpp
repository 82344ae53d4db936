#include "model/conv_bwd_weights.h"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#define TD_HAVE_AVX2_KERNEL 1
#endif

namespace td {

#if TD_HAVE_AVX2_KERNEL
namespace {

constexpr int kTileRows = 6;   // dW rows (kh, kw, ic) per register tile
constexpr int kTileCols = 16;  // output channels per register tile: two 8-float vectors

// One 6 x 16 tile of dW (or fewer rows, NB) summed over `rows` x `cols` output positions:
// per position two 8-channel vectors of dDst and NB broadcast source values, 2 NB FMAs.
// Named accumulators, not arrays: GCC keeps an array of vectors in memory and stores it back
// every iteration (40 GFLOP/s instead of ~100).
// MASK: dDst is the gradient of a ReLU's output, ReLU backward not applied yet; the ReLU's output
// lies `mo` floats after each dDst element, and dDst counts only where that output is > 0.
template <int NB, bool MASK>
__attribute__((target("avx2,fma"))) void tile(const float* s, const ptrdiff_t* off, ptrdiff_t sh, ptrdiff_t sw,
                                              const float* d0, const float* d1, ptrdiff_t dh, ptrdiff_t dw, int rows,
                                              int cols, float* out, ptrdiff_t ldo, ptrdiff_t mo) {
    static_assert(NB >= 1 && NB <= 6, "tile rows");
    __m256 a00 = _mm256_setzero_ps(), a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00;
    __m256 a30 = a00, a31 = a00, a40 = a00, a41 = a00, a50 = a00, a51 = a00;
    const ptrdiff_t o0 = off[0], o1 = NB > 1 ? off[1] : 0, o2 = NB > 2 ? off[2] : 0, o3 = NB > 3 ? off[3] : 0;
    const ptrdiff_t o4 = NB > 4 ? off[4] : 0, o5 = NB > 5 ? off[5] : 0;
    for (int r = 0; r < rows; ++r) {
        const float* sp = s + r * sh;
        const float* p0 = d0 + r * dh;
        const float* p1 = d1 + r * dh;
        for (int x = 0; x < cols; ++x) {
            __m256 v0 = _mm256_loadu_ps(p0), v1 = _mm256_loadu_ps(p1);
            if constexpr (MASK) {
                v0 = _mm256_and_ps(v0, _mm256_cmp_ps(_mm256_loadu_ps(p0 + mo), _mm256_setzero_ps(), _CMP_GT_OQ));
                v1 = _mm256_and_ps(v1, _mm256_cmp_ps(_mm256_loadu_ps(p1 + mo), _mm256_setzero_ps(), _CMP_GT_OQ));
            }
#define TD_STEP(i)                                           \
    if constexpr (NB > i) {                                  \
        const __m256 b = _mm256_broadcast_ss(sp + o##i);     \
        a##i##0 = _mm256_fmadd_ps(b, v0, a##i##0);           \
        a##i##1 = _mm256_fmadd_ps(b, v1, a##i##1);           \
    }                                                        \
    static_cast<void>(0)
            TD_STEP(0);
            TD_STEP(1);
            TD_STEP(2);
            TD_STEP(3);
            TD_STEP(4);
            TD_STEP(5);
#undef TD_STEP
            sp += sw, p0 += dw, p1 += dw;
        }
    }
    const __m256 acc[6][2] = {{a00, a01}, {a10, a11}, {a20, a21}, {a30, a31}, {a40, a41}, {a50, a51}};
    for (int i = 0; i < NB; ++i) {
        float* q = out + i * ldo;
        _mm256_storeu_ps(q, _mm256_add_ps(_mm256_loadu_ps(q), acc[i][0]));
        _mm256_storeu_ps(q + 8, _mm256_add_ps(_mm256_loadu_ps(q + 8), acc[i][1]));
    }
}

// The bias gradient's share of the same positions: the sum of the dDst vectors.
__attribute__((target("avx2,fma"))) void biasSum(const float* d0, const float* d1, ptrdiff_t dh, ptrdiff_t dw, int rows,
                                                 int cols, float* out, const float* mask0, const float* mask1) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    const __m256 zero = _mm256_setzero_ps();
    for (int r = 0; r < rows; ++r)
        for (int x = 0; x < cols; ++x) {
            const ptrdiff_t i = r * dh + x * dw;
            __m256 v0 = _mm256_loadu_ps(d0 + i), v1 = _mm256_loadu_ps(d1 + i);
            if (mask0) {
                v0 = _mm256_and_ps(v0, _mm256_cmp_ps(_mm256_loadu_ps(mask0 + i), zero, _CMP_GT_OQ));
                v1 = _mm256_and_ps(v1, _mm256_cmp_ps(_mm256_loadu_ps(mask1 + i), zero, _CMP_GT_OQ));
            }
            a0 = _mm256_add_ps(a0, v0);
            a1 = _mm256_add_ps(a1, v1);
        }
    _mm256_storeu_ps(out, _mm256_add_ps(_mm256_loadu_ps(out), a0));
    _mm256_storeu_ps(out + 8, _mm256_add_ps(_mm256_loadu_ps(out + 8), a1));
}

using TileFn = void (*)(const float*, const ptrdiff_t*, ptrdiff_t, ptrdiff_t, const float*, const float*, ptrdiff_t,
                        ptrdiff_t, int, int, float*, ptrdiff_t, ptrdiff_t);
constexpr TileFn kTiles[2][kTileRows + 1] = {
    {nullptr, tile<1, false>, tile<2, false>, tile<3, false>, tile<4, false>, tile<5, false>, tile<6, false>},
    {nullptr, tile<1, true>, tile<2, true>, tile<3, true>, tile<4, true>, tile<5, true>, tile<6, true>}};

}  // namespace

#endif  // TD_HAVE_AVX2_KERNEL

bool ConvBwdWeightsAvx2::init(const memory::desc& src, const memory::desc& diffDst, int pad) {
    m_ok = false;
#if !TD_HAVE_AVX2_KERNEL
    (void)src, (void)diffDst, (void)pad;
    return false;
#else
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return false;
    if (!channelStrides(src, &m_src) || !channelStrides(diffDst, &m_dst)) return false;
    const memory::dims sd = src.dims(), dd = diffDst.dims();
    m_N = sd[0], m_C = sd[1], m_H = sd[2], m_W = sd[3], m_O = dd[1], m_OH = dd[2], m_OW = dd[3];
    m_pad = pad;
    if (dd[0] != m_N || m_OH != m_H + 2 * pad - 2 || m_OW != m_W + 2 * pad - 2 || m_O % kTileCols != 0) return false;
    if (!m_dst.eightContiguous(m_O)) return false;             // dDst is read as vectors of 8 output channels
    m_rowsPerChunk = int(std::max<ptrdiff_t>(1, 256 / m_OW));  // ~256 positions: dDst chunk stays in L1
    m_ok = true;
    return true;
#endif
}

void ConvBwdWeightsAvx2::run(const float* src, const float* diffDst, float* dw, float* db,
                             const float* reluOut) const {
#if TD_HAVE_AVX2_KERNEL
    const ptrdiff_t K = 9 * m_C, KT = (K + kTileRows - 1) / kTileRows, G = m_O / kTileCols, items = G * KT;
    const ptrdiff_t Hp = m_H + 2 * m_pad, Wp = m_W + 2 * m_pad;
    // The ReLU's output has dDst's layout: the same offset from every dDst element.
    const int mask = reluOut ? 1 : 0;
    const ptrdiff_t mo =
        reluOut ? (reinterpret_cast<intptr_t>(reluOut) - reinterpret_cast<intptr_t>(diffDst)) / ptrdiff_t(sizeof(float))
                : 0;
    // With padding each image is first copied into a zero-bordered HWC buffer (cheap next to
    // the 9 x O FMAs per element): then every tile position reads inside the buffer.
    const bool packed = m_pad > 0;
    const ptrdiff_t sh = packed ? Wp * m_C : m_src.h, sw = packed ? m_C : m_src.w;
    std::vector<ptrdiff_t> off(size_t(K + kTileRows));
    for (ptrdiff_t k = 0; k < K; ++k) {
        const ptrdiff_t kh = k / (3 * m_C), kw = k / m_C % 3, ic = k % m_C;
        off[size_t(k)] = kh * sh + kw * sw + (packed ? ic : m_src.offset(ic));
    }
#pragma omp parallel
    {
        const ptrdiff_t T = omp_get_num_threads(), t = omp_get_thread_num();
        const ptrdiff_t i0 = items * t / T, i1 = items * (t + 1) / T;
        for (ptrdiff_t it = i0; it < i1; ++it) {
            const ptrdiff_t g = it / KT, k0 = it % KT * kTileRows, nb = std::min<ptrdiff_t>(kTileRows, K - k0);
            for (ptrdiff_t k = k0; k < k0 + nb; ++k) std::fill_n(dw + k * m_O + g * kTileCols, kTileCols, 0.0f);
            if (k0 == 0) std::fill_n(db + g * kTileCols, kTileCols, 0.0f);
        }
        std::vector<float> pack(packed && i1 > i0 ? size_t(Hp * Wp * m_C) : 0, 0.0f);
        for (ptrdiff_t n = 0; n < m_N && i1 > i0; ++n) {
            const float* sn = src + n * m_src.n;
            const float* s = sn;
            if (packed) {
                for (ptrdiff_t h = 0; h < m_H; ++h)
                    for (ptrdiff_t w = 0; w < m_W; ++w) {
                        float* q = pack.data() + ((h + m_pad) * Wp + w + m_pad) * m_C;
                        const float* p = sn + h * m_src.h + w * m_src.w;
                        if (m_src.block && m_C % m_src.block == 0) {
                            for (ptrdiff_t cb = 0; cb < m_C; cb += m_src.block)
                                std::memcpy(q + cb, p + cb / m_src.block * m_src.c,
                                            sizeof(float) * size_t(m_src.block));
                        } else {
                            for (ptrdiff_t c = 0; c < m_C; ++c) q[c] = p[m_src.offset(c)];
                        }
                    }
                s = pack.data();
            }
            const float* dn = diffDst + n * m_dst.n;
            for (ptrdiff_t r0 = 0; r0 < m_OH; r0 += m_rowsPerChunk) {
                const int rows = int(std::min<ptrdiff_t>(m_rowsPerChunk, m_OH - r0));
                for (ptrdiff_t it = i0; it < i1; ++it) {
                    const ptrdiff_t g = it / KT, k0 = it % KT * kTileRows, nb = std::min<ptrdiff_t>(kTileRows, K - k0);
                    const float* d0 = dn + m_dst.offset(g * kTileCols) + r0 * m_dst.h;
                    const float* d1 = dn + m_dst.offset(g * kTileCols + 8) + r0 * m_dst.h;
                    kTiles[mask][nb](s + r0 * sh, off.data() + k0, sh, sw, d0, d1, m_dst.h, m_dst.w, rows,
                                     int(m_OW), dw + k0 * m_O + g * kTileCols, m_O, mo);
                    if (k0 == 0)
                        biasSum(d0, d1, m_dst.h, m_dst.w, rows, int(m_OW), db + g * kTileCols,
                                mask ? d0 + mo : nullptr, mask ? d1 + mo : nullptr);
                }
            }
        }
    }
#else
    (void)src, (void)diffDst, (void)dw, (void)db, (void)reluOut;
#endif
}

}  // namespace td
