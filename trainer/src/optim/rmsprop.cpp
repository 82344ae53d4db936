#include "optim/rmsprop.h"

#include <cmath>

namespace td {

RmsProp::RmsProp(const RmsPropConfig& cfg, size_t n) : m_cfg(cfg), m_n(n), m_acc(allocFloats(n)) {}

double RmsProp::currentLr() const { return m_cfg.lr / (1.0 + m_cfg.decay * double(m_iterations)); }

void RmsProp::step(float* params, const float* grads) {
    const float lr = float(currentLr());
    const float rho = m_cfg.rho, eps = m_cfg.epsilon;
    float* a = m_acc.get();
    const size_t n = m_n;
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < n; ++i) {
        const float g = grads[i];
        const float acc = rho * a[i] + (1.0f - rho) * g * g;
        a[i] = acc;
        params[i] -= lr * g / (std::sqrt(acc) + eps);
    }
    ++m_iterations;
}

}  // namespace td
