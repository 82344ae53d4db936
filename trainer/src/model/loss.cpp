#include "model/loss.h"

#include <algorithm>
#include <cmath>

namespace td {

LossResult softmaxCrossEntropy(const float* logits, const int32_t* labels, int batch, int valid, int classes,
                               float* probs, float* grad) {
    LossResult r;
    const float invN = 1.0f / float(valid > 0 ? valid : 1);
    for (int i = 0; i < batch; ++i) {
        const float* z = logits + size_t(i) * classes;
        float* p = probs + size_t(i) * classes;
        float mx = z[0];
        for (int k = 1; k < classes; ++k) mx = std::max(mx, z[k]);
        double sum = 0;
        for (int k = 0; k < classes; ++k) {
            p[k] = std::exp(z[k] - mx);
            sum += p[k];
        }
        int argmax = 0;
        for (int k = 0; k < classes; ++k) {
            p[k] = float(p[k] / sum);
            if (p[k] > p[argmax]) argmax = k;
        }
        if (i < valid) {
            const float py = std::clamp(p[labels[i]], 1e-7f, 1.0f - 1e-7f);
            r.lossSum += -std::log(double(py));
            r.correct += argmax == labels[i] ? 1 : 0;
        }
        if (grad) {
            float* g = grad + size_t(i) * classes;
            for (int k = 0; k < classes; ++k)
                g[k] = i < valid ? (p[k] - (k == labels[i] ? 1.0f : 0.0f)) * invN : 0.0f;
        }
    }
    return r;
}

}  // namespace td
