#pragma once
// One row of softmax + categorical cross-entropy (device code shared by loss.cu and the
// fused head kernel of fused.cu, so that both compute every value with the same float
// operations in the same order): Keras' 1e-7 clipping for the reported loss, the first
// maximum as the prediction, the gradient (p - onehot) / valid.
#include "cuda/kernels.h"

namespace td::cuda {

// z: the row's logits without bias; counted: the row is one of the `valid` ones (padding
// rows get a zero gradient and add nothing to the sums). probs and grad may be null.
__device__ inline void softmaxCrossEntropyRow(const float* z, const float* bias, int K, int y, bool counted,
                                              float invN, float* probs, float* grad, double* lossSum,
                                              double* correct) {
    float mx = z[0] + bias[0];
    for (int k = 1; k < K; ++k) mx = fmaxf(mx, z[k] + bias[k]);
    double sum = 0.0;
    for (int k = 0; k < K; ++k) sum += double(expf((z[k] + bias[k]) - mx));
    int argmax = 0;
    float pBest = -1.0f, py = 0.0f;
    for (int k = 0; k < K; ++k) {
        const float p = float(double(expf((z[k] + bias[k]) - mx)) / sum);
        if (p > pBest) pBest = p, argmax = k;
        if (k == y) py = p;
        if (probs) probs[k] = p;
        if (grad) grad[k] = counted ? (p - (k == y ? 1.0f : 0.0f)) * invN : 0.0f;
    }
    if (counted) {
        *lossSum += -log(double(fminf(fmaxf(py, 1e-7f), 1.0f - 1e-7f)));
        *correct += argmax == y ? 1.0 : 0.0;
    }
}

// A block's loss and correct counts, summed by one thread from the per-thread parts in
// thread order, written where the step wants them: training's extras, evaluation's sums.
__device__ inline void storeLossTotals(const double* lossPart, const double* correctPart, unsigned int parts,
                                       int valid, float* extras, double* accum) {
    double l = 0.0, c = 0.0;
    for (unsigned int t = 0; t < parts; ++t) l += lossPart[t], c += correctPart[t];
    if (extras) {
        extras[0] = float(l);
        extras[1] = float(c);
        extras[2] = float(valid);
    }
    if (accum) {
        accum[0] += l;
        accum[1] += c;
    }
}

}  // namespace td::cuda
