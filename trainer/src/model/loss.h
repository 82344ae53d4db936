#pragma once
// Softmax + categorical cross-entropy on (N, classes) logits, Keras style: the reported
// loss clips probabilities to [1e-7, 1 - 1e-7]; the gradient is (p - onehot) / N.
#include <cstdint>

namespace td {

struct LossResult {
    double lossSum = 0;  // over the first `valid` samples
    double correct = 0;
};

// probs receives softmax(logits); grad (may be null) receives d mean-loss / d logits over
// `batch` samples, of which only the first `valid` count (the rest get zero gradient).
LossResult softmaxCrossEntropy(const float* logits, const int32_t* labels, int batch, int valid, int classes,
                               float* probs, float* grad);

}  // namespace td
