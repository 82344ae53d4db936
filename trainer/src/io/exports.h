#pragma once
// Trained-model exports written by rank 0 at the end of training.
#include <string>

namespace td {

class Net;

// Keras 2 HDF5 model (model_config + model_weights), loadable by keras.models.load_model.
void saveKerasH5(const std::string& path, const Net& net, double lr, double decay);
// ONNX (opset 13), protobuf encoded by hand; input NHWC float images in [0,1], output
// softmax probabilities.
void saveOnnx(const std::string& path, const Net& net);

// Keras' Sequential config JSON for the model (used by the HDF5 export).
std::string kerasModelConfig(const Net& net);

}  // namespace td
