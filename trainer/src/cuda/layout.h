#pragma once
// The device layout of the flat parameter buffer. Offsets are the canonical ones
// (model/params.h); inside a slot, conv kernels are stored as cuDNN wants them (OHWI for
// NHWC activations, OIHW for NCHW), and in NCHW mode dense_1's kernel rows follow the NCHW
// flatten order of pool2's output. The map is a permutation applied alike to weights,
// RMSprop accumulators and gradients (RMSprop is element-wise), so the GPU never
// reorders anything per step; only host<->device transfers convert.
#include <vector>

#include "cuda/kernels.h"
#include "model/params.h"

namespace td::cuda {

// dev and canon hold table.totalFloats() floats; the alignment gaps between parameters
// come out zero.
void canonicalToDevice(const ParamTable& table, const NetConfig& cfg, bool nhwc, const float* canon, float* dev);
void deviceToCanonical(const ParamTable& table, const NetConfig& cfg, bool nhwc, const float* dev, float* canon);

// An activation in the device layout t (NHWC or NCHW) as NHWC on the host (the GPU
// self-check compares it with the CPU backend's layer output).
std::vector<float> activationToNhwc(const float* dev, const Tensor4& t);

}  // namespace td::cuda
