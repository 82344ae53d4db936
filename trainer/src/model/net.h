#pragma once
// The tutorial's CNN, built for a fixed batch size and input shape:
// Conv32(same)-ReLU-Conv32(valid)-ReLU-MaxPool-Dropout.25-Conv64(same)-ReLU-
// Conv64(valid)-ReLU-MaxPool-Dropout.25-Flatten-Dense512-ReLU-Dropout.5-Dense10-softmax.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/conv.h"
#include "model/dense.h"
#include "model/elementwise.h"
#include "model/loss.h"
#include "model/params.h"
#include "model/pool.h"

namespace td {

class Net {
public:
    explicit Net(const NetConfig& cfg);

    const NetConfig& config() const { return m_cfg; }
    const ParamTable& params() const { return m_params; }
    size_t paramFloats() const { return m_params.totalFloats(); }
    float* weights() { return m_weights.get(); }
    // Gradient buffer: paramFloats() gradients, then kExtra slots that ride along in the
    // same all-reduce (loss sum, correct count, sample count of the step).
    float* grads() { return m_grads.get(); }
    static constexpr size_t kExtra = 3;

    // Call after the canonical weights change (init, update, load).
    void syncWeights();

    // Input batch buffer (batch x h x w x c floats, NHWC) and labels to fill before forward.
    float* input() { return ptr(m_input.val); }
    int32_t* labels() { return m_labels.data(); }

    // Forward pass on the first `valid` samples (the rest are padding). With train=true
    // dropout is applied with masks keyed by (dropoutKey, positions[i]).
    LossResult forward(bool train, int valid, uint64_t dropoutKey = 0, const uint64_t* positions = nullptr);
    // Backward after a training forward: fills grads() (batch-mean gradients).
    void backward();
    const float* probabilities() const { return m_probs.data(); }
    // The outputs of the last forward pass, per Keras layer up to dense_1 (after bias, ReLU
    // and dropout), NHWC or (N, units): what the GPU self-check compares layer by layer.
    std::vector<std::pair<std::string, std::vector<float>>> layerOutputs();

    std::vector<const LayerTiming*> timings() const;
    // Around each training step's forward + backward: keeps each layer's least step time.
    void beginStepTiming();
    void endStepTiming();
    double flopsPerTrainStep() const;

private:
    NetConfig m_cfg;
    Ctx m_ctx;
    ParamTable m_params;
    FloatBuffer m_weights, m_grads;
    Act m_input;
    std::vector<int32_t> m_labels;
    std::unique_ptr<Conv2D> m_conv1, m_conv2, m_conv3, m_conv4;
    std::unique_ptr<MaxPool2D> m_pool1, m_pool2;
    std::unique_ptr<Dropout> m_drop1, m_drop2, m_drop3;
    Act m_flat;  // pool2 output in NHWC, viewed as (N, h*w*c): Keras' Flatten order
    memory m_flatKeep[2];
    Reorder m_rFlatFwd, m_rFlatBwd;
    bool m_lastTrain = false;
    std::unique_ptr<Dense> m_dense1, m_dense2;
    std::vector<float> m_probs;
    LayerTiming m_flatTiming, m_lossTiming, m_dropTiming;
    int64_t m_timedSteps = 0;
};

}  // namespace td
