#pragma once
// The CUDA backend: data sets resident on the GPU, the step (batch assembly, forward,
// backward, NCCL all-reduce, RMSprop) captured in a CUDA graph after one eager warm-up
// step, metrics kept on the device and read at log points only.
#include <memory>

#include "train/backend.h"

namespace td::cuda {

std::unique_ptr<Backend> makeCudaBackend(const BackendSetup& setup);

}  // namespace td::cuda
