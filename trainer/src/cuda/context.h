#pragma once
// Streams, library handles and workspaces of one rank's GPU. The step runs on `main`;
// weight gradients go to `side` so they overlap the data-gradient chain of the backward
// pass (each cuDNN/cuBLAS handle and workspace belongs to one stream); NCCL runs on
// `comm`. Streams are joined with events, which CUDA graph capture turns into edges.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <vector>

#include "cuda/memory.h"

namespace td::cuda {

class GpuContext {
public:
    explicit GpuContext(bool concurrent);
    ~GpuContext();
    GpuContext(const GpuContext&) = delete;
    GpuContext& operator=(const GpuContext&) = delete;

    cudaStream_t main() const { return m_main; }
    cudaStream_t side() const { return m_concurrent ? m_side : m_main; }
    cudaStream_t comm() const { return m_comm; }
    cudnnHandle_t dnnMain() const { return m_dnnMain; }
    cudnnHandle_t dnnSide() const { return m_concurrent ? m_dnnSide : m_dnnMain; }
    cublasHandle_t blasMain() const { return m_blasMain; }
    cublasHandle_t blasSide() const { return m_concurrent ? m_blasSide : m_blasMain; }
    bool concurrent() const { return m_concurrent; }

    // cuDNN workspaces (grown, never shrunk; set-up time only).
    void reserveWorkspaces(size_t mainBytes, size_t sideBytes);
    void* wsMain() const { return m_wsMain.get(); }
    size_t wsMainBytes() const { return m_wsMain.bytes(); }
    void* wsSide() const { return m_concurrent ? m_wsSide.get() : m_wsMain.get(); }
    size_t wsSideBytes() const { return m_concurrent ? m_wsSide.bytes() : m_wsMain.bytes(); }

    // `waiter` waits for the work queued so far on `signaler` (no-op when they are one).
    void dependOn(cudaStream_t waiter, cudaStream_t signaler);

private:
    bool m_concurrent;
    cudaStream_t m_main = nullptr, m_side = nullptr, m_comm = nullptr;
    cudnnHandle_t m_dnnMain = nullptr, m_dnnSide = nullptr;
    cublasHandle_t m_blasMain = nullptr, m_blasSide = nullptr;
    DeviceBuffer<char> m_wsMain, m_wsSide, m_blasWsMain, m_blasWsSide;
    std::vector<cudaEvent_t> m_events;
    size_t m_nextEvent = 0;
};

}  // namespace td::cuda
