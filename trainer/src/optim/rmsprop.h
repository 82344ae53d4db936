#pragma once
// RMSprop exactly as Keras 2 defines it:
//   lr_t = lr / (1 + decay * iterations)
//   a    = rho * a + (1 - rho) * g^2
//   p   -= lr_t * g / (sqrt(a) + epsilon)
// iterations counts updates already applied (0 for the first step).
#include <cstddef>
#include <cstdint>

#include "model/params.h"

namespace td {

struct RmsPropConfig {
    double lr = 1e-4;
    double decay = 1e-6;
    float rho = 0.9f;
    float epsilon = 1e-7f;
};

class RmsProp {
public:
    RmsProp(const RmsPropConfig& cfg, size_t n);
    double currentLr() const;  // lr_t for the next update
    // grads are multiplied by gradScale first (1/workers: the Horovod average).
    void step(float* params, const float* grads, float gradScale = 1.0f);
    int64_t iterations() const { return m_iterations; }
    void setIterations(int64_t it) { m_iterations = it; }
    float* accumulators() { return m_acc.get(); }
    const float* accumulators() const { return m_acc.get(); }
    size_t size() const { return m_n; }
    const RmsPropConfig& config() const { return m_cfg; }

private:
    RmsPropConfig m_cfg;
    size_t m_n;
    FloatBuffer m_acc;
    int64_t m_iterations = 0;
};

}  // namespace td
