#include "optim/rmsprop.h"

#include <omp.h>

#include <algorithm>
#include <cmath>

namespace td {

namespace {

// The update is memory bound: one pass reads g, a, p and writes a, p. Multiversioned so
// the portable x86-64-v2 build still uses AVX2/AVX-512 where the CPU has them.
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
void rmspropKernel(float* __restrict p, float* __restrict a, const float* __restrict g, size_t n, float gradScale,
                   float lr, float rho, float eps) {
    const float oneMinusRho = 1.0f - rho;
#pragma omp simd
    for (size_t i = 0; i < n; ++i) {
        const float gi = g[i] * gradScale;
        const float acc = rho * a[i] + oneMinusRho * gi * gi;
        a[i] = acc;
        p[i] -= lr * gi / (std::sqrt(acc) + eps);
    }
}

}  // namespace

RmsProp::RmsProp(const RmsPropConfig& cfg, size_t n) : m_cfg(cfg), m_n(n), m_acc(allocFloats(n)) {}

double RmsProp::currentLr() const { return m_cfg.lr / (1.0 + m_cfg.decay * double(m_iterations)); }

void RmsProp::step(float* params, const float* grads, float gradScale) {
    const float lr = float(currentLr());
    float* acc = m_acc.get();
    const size_t n = m_n;
#pragma omp parallel
    {
        // Static, cache-line aligned chunks: the result never depends on the thread count.
        const size_t threads = size_t(omp_get_num_threads()), t = size_t(omp_get_thread_num());
        const size_t chunk = ((n + threads - 1) / threads + 15) / 16 * 16;
        const size_t begin = std::min(n, t * chunk), end = std::min(n, begin + chunk);
        if (end > begin)
            rmspropKernel(params + begin, acc + begin, grads + begin, end - begin, gradScale, lr, m_cfg.rho,
                          m_cfg.epsilon);
    }
    ++m_iterations;
}

}  // namespace td
