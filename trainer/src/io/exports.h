#pragma once
// Trained-model exports written by rank 0 at the end of training.
#include <string>

#include "model/params.h"

namespace td {

// Both take the model's canonical parameter buffer (Keras order and layouts).

// Keras 2 HDF5 model (model_config + model_weights), loadable by keras.models.load_model.
void saveKerasH5(const std::string& path, const NetConfig& cfg, const ParamTable& params, const float* weights,
                 double lr, double decay);
// ONNX (opset 13), protobuf encoded by hand; input NHWC float images in [0,1], output
// softmax probabilities.
void saveOnnx(const std::string& path, const NetConfig& cfg, const ParamTable& params, const float* weights);

// Keras' Sequential config JSON for the model (used by the HDF5 export).
std::string kerasModelConfig(const NetConfig& cfg);

}  // namespace td
