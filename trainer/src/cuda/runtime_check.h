#pragma once
// Checked CUDA runtime calls, in the style of util/check.h: a failure throws
// td::RuntimeError naming the call, the error's name and text, and file:line. Also
// available in the host emulation of the kernels (cuda/kernel_runtime.h).
#include "cuda/kernel_runtime.h"
#include "util/check.h"

#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        const cudaError_t cuda_rc_ = (call);                                                       \
        if (cuda_rc_ != cudaSuccess)                                                               \
            TD_FAIL("CUDA call failed: ", #call, ": ", cudaGetErrorName(cuda_rc_), ": ",           \
                    cudaGetErrorString(cuda_rc_));                                                 \
    } while (0)

// After a kernel launch: launch-configuration errors (asynchronous faults surface at the
// next synchronising call, which is checked too).
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
