#include <vector>

#include "model/elementwise.h"
#include "util/rng.h"

namespace td {

void reluBackward(const memory& val, const memory& grad) {
    const size_t n = val.get_desc().get_size() / sizeof(float);
    const float* v = ptr(val);
    float* g = ptr(grad);
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < n; ++i) g[i] = v[i] > 0.0f ? g[i] : 0.0f;
}

Dropout::Dropout(const memory& val, float rate, int64_t batch) : m_rate(rate), m_batch(batch) {
    const size_t n = val.get_desc().get_size() / sizeof(float);
    // The batch dimension is outermost in every layout used here (nchw/nhwc/nChw16c/nc).
    TD_CHECK(n % size_t(batch) == 0 && val.get_desc().data.format_desc.blocking.strides[0] * batch ==
                                           int64_t(n),
             "dropout: batch is not the outermost dimension of the activation layout");
    m_perSample = n / size_t(batch);
    m_mask.resize(n);
}

namespace {

// 32-bit integer hash (lowbias32): vectorises with 32-bit multiplies, unlike splitmix64.
inline uint32_t hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// Mask and apply for one sample; multiversioned so AVX2/AVX-512 CPUs get wide vectors.
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
void dropoutSample(float* __restrict x, float* __restrict m, size_t n, uint32_t key, uint32_t threshold, float scale) {
#pragma omp simd
    for (size_t j = 0; j < n; ++j) {
        const uint32_t h = hash32(key ^ (uint32_t(j) * 0x9e3779b9u));
        const float keep = (h >> 8) >= threshold ? scale : 0.0f;
        m[j] = keep;
        x[j] *= keep;
    }
}

}  // namespace

void Dropout::forward(const memory& val, uint64_t key, const uint64_t* positions) {
    float* v = ptr(val);
    const float scale = 1.0f / (1.0f - m_rate);
    // Keep an element when its 24-bit uniform draw is >= rate.
    const uint32_t threshold = uint32_t(double(m_rate) * 16777216.0);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < m_batch; ++i) {
        const uint32_t k = uint32_t(rng::key(key, positions[i]));
        dropoutSample(v + size_t(i) * m_perSample, m_mask.data() + size_t(i) * m_perSample, m_perSample, k,
                      threshold, scale);
    }
}

void Dropout::backward(const memory& grad) const {
    float* g = ptr(grad);
    const size_t n = m_mask.size();
    const float* m = m_mask.data();
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < n; ++i) g[i] *= m[i];
}

void scaleBuffer(float* x, size_t n, float s) {
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < n; ++i) x[i] *= s;
}

}  // namespace td
