#pragma once
// Hand-written element-wise kernels: ReLU backward, dropout, buffer arithmetic. They
// run over the whole (possibly blocked, padded) buffer: layout does not matter.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/dnnl_util.h"

namespace td {

// grad *= (val > 0): the derivative of a ReLU whose output is val.
void reluBackward(const memory& val, const memory& grad);

// Inverted dropout over a batch: sample i (position positions[i] in the epoch) keeps an
// element with probability 1-rate and scales it by 1/(1-rate). The mask depends only on
// (key, position, element), so it is the same whatever the rank count or thread order.
class Dropout {
public:
    Dropout(const memory& val, float rate, int64_t batch);
    void forward(const memory& val, uint64_t key, const uint64_t* positions);
    void backward(const memory& grad) const;
    float rate() const { return m_rate; }

private:
    float m_rate;
    int64_t m_batch;
    size_t m_perSample;
    std::vector<float> m_mask;
};

void scaleBuffer(float* x, size_t n, float s);

}  // namespace td
