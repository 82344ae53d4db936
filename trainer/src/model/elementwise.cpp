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

void Dropout::forward(const memory& val, uint64_t key, const uint64_t* positions) {
    float* v = ptr(val);
    const float scale = 1.0f / (1.0f - m_rate);
    const float rate = m_rate;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < m_batch; ++i) {
        const uint64_t k = rng::key(key, positions[i]);
        float* m = m_mask.data() + size_t(i) * m_perSample;
        float* x = v + size_t(i) * m_perSample;
        for (size_t j = 0; j < m_perSample; ++j) {
            m[j] = rng::uniform(rng::mix(k + j)) >= rate ? scale : 0.0f;
            x[j] *= m[j];
        }
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
