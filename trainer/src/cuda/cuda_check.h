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

inline std::string cudnnLastError() {
    char buf[512] = {0};
    cudnnGetLastErrorString(buf, sizeof buf);
    return buf[0] ? std::string(" (") + buf + ")" : std::string();
}

}  // namespace td::cuda

#define CUDNN_CHECK(call)                                                                          \
    do {                                                                                           \
        const cudnnStatus_t cudnn_rc_ = (call);                                                    \
        if (cudnn_rc_ != CUDNN_STATUS_SUCCESS)                                                     \
            TD_FAIL("cuDNN call failed: ", #call, ": ", cudnnGetErrorString(cudnn_rc_),            \
                    ::td::cuda::cudnnLastError());                                                 \
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
