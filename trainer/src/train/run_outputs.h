#pragma once
// What rank 0 leaves behind when training ends: the trained model (Keras HDF5 and ONNX) and
// the raw float dumps the tests compare with a reference.
#include <cstddef>
#include <string>

#include "cli/options.h"
#include "data/dataset.h"
#include "train/backend.h"

namespace td {

// The floats as they are in memory, creating the parent folder; throws naming the file.
void writeRaw(const std::string& path, const float* data, size_t n);

// The Keras file's name in saved_models/: keras_cifar10_trained_model.h5 for CIFAR-10 (the
// Batch AI recipe's) and the synthetic set, else named after the data set (an IDX set after
// its folder: fashion_mnist_trained_model.h5).
std::string modelFileName(const Options& o, const std::string& datasetName);

// Rank 0 only: saved_models/ (unless --no-save) and the --dump-* files asked for.
void saveRunOutputs(const Options& o, const NetConfig& net, const RmsPropConfig& opt, Backend& backend,
                    const Dataset& test, const std::string& datasetName);

}  // namespace td
