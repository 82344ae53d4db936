#pragma once
// The bias add of every layer's epilogue (device code shared by bias_act.cu, fused.cu and
// layer_forward.cu, so that the library and the fused path add the same way).
#include "cuda/kernels.h"

// A deliberately wrong channel index (bias[c + 1]) for the tests that show a broken bias add
// is caught (tests/trainer/CMakeLists.txt builds that variant of the emulated kernels); 0 in
// every real build.
#ifndef TD_TEST_FAULT_BIAS_OFFSET
#define TD_TEST_FAULT_BIAS_OFFSET 0
#endif

namespace td::cuda {

__device__ inline float biasAdd(float v, const float* bias, int c) { return v + bias[c + TD_TEST_FAULT_BIAS_OFFSET]; }

}  // namespace td::cuda
