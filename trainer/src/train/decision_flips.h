#pragma once
// Where two backends' forward passes took different discrete decisions: a ReLU that let a
// value through on one side and cut it on the other, or a 2x2 max-pool window whose maximum
// (the element the gradient goes to; the first maximum in row-major order on both backends,
// as oneDNN's max pooling and cuda/pool.cu choose it) is a different element.
//
// Why the self-check needs it: two correct backends round differently (cuDNN's and oneDNN's
// convolutions sum in other orders), so a pre-activation within rounding of zero, or two
// window values within rounding of each other, can be decided either way. The forward
// values then still agree within the tolerance, but the gradient takes another path: one
// term of a weight gradient moves, about 1 % of the tensor's largest value on the
// self-check's batch. Such a step says nothing about the kernels, and the self-check tries
// another batch (train/self_check.cpp); every other step is compared exactly as before.
#include <string>
#include <vector>

#include "train/backend.h"

namespace td {

struct DecisionFlips {
    int count = 0;
    std::string first;  // where the first one is and both sides' values, "" when none
};

// `gpu` and `cpu`: the layer outputs of Backend::layerOutputs (NHWC, post-ReLU), in the
// order conv2d_1, conv2d_2, max_pooling2d_1, conv2d_3, conv2d_4, max_pooling2d_2, dense_1,
// of `batch` images of the model `net`.
DecisionFlips decisionFlips(const NetConfig& net, int batch, const std::vector<LayerOutput>& gpu,
                            const std::vector<LayerOutput>& cpu);

}  // namespace td
