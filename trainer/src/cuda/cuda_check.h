#pragma once
// Checked calls for the CUDA runtime (cuda/runtime_check.h), cuDNN, cuBLAS and NCCL, in
// the style of util/check.h: a failure throws td::RuntimeError naming the call, the
// library's error name and text, and file:line.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <nccl.h>

#include <string>

#include "cuda/runtime_check.h"
#include "util/check.h"

namespace td::cuda {

// cuDNN cannot do this here (a layout, shape or algorithm it lacks): the one error the
// NHWC-to-NCHW fallback takes (cuda_backend.cpp). Memory and every other error fail the job.
struct CudnnNotSupported : RuntimeError {
    using RuntimeError::RuntimeError;
};

inline bool cudnnNotSupported(cudnnStatus_t s) {
#if CUDNN_MAJOR >= 9
    return int(s) >= int(CUDNN_STATUS_NOT_SUPPORTED) && int(s) < int(CUDNN_STATUS_NOT_SUPPORTED) + 1000;
#else
    return s == CUDNN_STATUS_NOT_SUPPORTED;
#endif
}

// "GPU 1 (NVIDIA H100 80GB HBM3, 1.2 of 79.1 GiB free)": which GPU ran out of memory.
std::string currentGpuMemory();

inline std::string cudnnLastError() {
    char buf[512] = {0};
    cudnnGetLastErrorString(buf, sizeof buf);
    return buf[0] ? std::string(" (") + buf + ")" : std::string();
}

}  // namespace td::cuda

#define CUDNN_CHECK(call)                                                                          \
    do {                                                                                           \
        const cudnnStatus_t cudnn_rc_ = (call);                                                    \
        if (cudnn_rc_ != CUDNN_STATUS_SUCCESS) {                                                   \
            const std::string cudnn_msg_ = ::td::cat("cuDNN call failed: ", #call, ": ",           \
                cudnnGetErrorString(cudnn_rc_), ::td::cuda::cudnnLastError(),                      \
                cudnn_rc_ == CUDNN_STATUS_ALLOC_FAILED ? " on " + ::td::cuda::currentGpuMemory()   \
                                                       : std::string(),                            \
                " [", __FILE__, ":", __LINE__, "]");                                               \
            if (::td::cuda::cudnnNotSupported(cudnn_rc_))                                          \
                throw ::td::cuda::CudnnNotSupported(cudnn_msg_);                                   \
            throw ::td::RuntimeError(cudnn_msg_);                                                  \
        }                                                                                          \
    } while (0)

#define CUBLAS_CHECK(call)                                                                         \
    do {                                                                                           \
        const cublasStatus_t cublas_rc_ = (call);                                                  \
        if (cublas_rc_ != CUBLAS_STATUS_SUCCESS)                                                   \
            TD_FAIL("cuBLAS call failed: ", #call, ": ", cublasGetStatusName(cublas_rc_), ": ",    \
                    cublasGetStatusString(cublas_rc_));                                            \
    } while (0)

// comm may be nullptr (before the communicator exists).
#define NCCL_CHECK(call, comm)                                                                     \
    do {                                                                                           \
        const ncclResult_t nccl_rc_ = (call);                                                      \
        if (nccl_rc_ != ncclSuccess) {                                                             \
            const char* nccl_last_ = ncclGetLastError(comm);                                       \
            TD_FAIL("NCCL call failed: ", #call, ": ", ncclGetErrorString(nccl_rc_),               \
                    (nccl_last_ && *nccl_last_) ? std::string(" (") + nccl_last_ + ")"             \
                                                : std::string());                                  \
        }                                                                                          \
    } while (0)
