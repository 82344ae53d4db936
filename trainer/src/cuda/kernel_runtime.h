#pragma once
// What the hand-written kernels (*.cu) need from CUDA, in one place: the runtime API and
// TD_LAUNCH, the one way they launch a kernel. Under nvcc TD_LAUNCH is the triple-chevron
// launch. With TD_CUDA_HOST_EMULATION defined, the same sources compile as host C++ (any
// compiler, no CUDA installed) and TD_LAUNCH runs the grid on host threads
// (cuda/host_emulation.h): that is how the tests run the kernels without a GPU.
#if defined(TD_CUDA_HOST_EMULATION)
#include "cuda/host_emulation.h"
#define TD_LAUNCH(kernel, grid, block, stream, ...) \
    ::td::cuda::emu::launch(kernel, grid, block, stream __VA_OPT__(, ) __VA_ARGS__)
#else
#include <cuda_runtime.h>
#define TD_LAUNCH(kernel, grid, block, stream, ...) kernel<<<grid, block, 0, stream>>>(__VA_ARGS__)
#endif
