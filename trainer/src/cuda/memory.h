#pragma once
// Device memory: an owning buffer, host<->device copies, and the data set held on the GPU
// for the whole run (uint8 pixels and labels, converted to float per batch by a kernel).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cuda/cuda_check.h"
#include "data/dataset.h"

namespace td::cuda {

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t n) { allocate(n); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : m_ptr(std::exchange(o.m_ptr, nullptr)), m_n(std::exchange(o.m_n, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            m_ptr = std::exchange(o.m_ptr, nullptr);
            m_n = std::exchange(o.m_n, 0);
        }
        return *this;
    }

    // Zero-filled, and finished before returning: cudaMemset runs on the legacy default
    // stream, which the backend's non-blocking streams do not wait for. Set-up time only.
    void allocate(size_t n) {
        release();
        if (n == 0) return;
        void* p = nullptr;
        const cudaError_t e = cudaMalloc(&p, n * sizeof(T));
        if (e != cudaSuccess)
            TD_FAIL("cudaMalloc of ", n * sizeof(T), " bytes (", double(n * sizeof(T)) / (1 << 20), " MiB) failed on ",
                    currentGpuMemory(), ": ", cudaGetErrorName(e), ": ", cudaGetErrorString(e));
        m_ptr = static_cast<T*>(p);
        m_n = n;
        CUDA_CHECK(cudaMemset(m_ptr, 0, n * sizeof(T)));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    void release() {
        if (m_ptr) cudaFree(m_ptr);
        m_ptr = nullptr;
        m_n = 0;
    }

    T* get() const { return m_ptr; }
    size_t size() const { return m_n; }
    size_t bytes() const { return m_n * sizeof(T); }

    // Copies that are complete when they return. They do not wait for work queued on the
    // backend's non-blocking streams: synchronise those first.
    void upload(const T* host, size_t n, size_t offset = 0) {
        TD_CHECK(offset + n <= m_n, "upload of ", n, " elements at ", offset, " into a buffer of ", m_n);
        if (n) {
            CUDA_CHECK(cudaMemcpy(m_ptr + offset, host, n * sizeof(T), cudaMemcpyHostToDevice));
            // From pageable memory cudaMemcpy may return before the DMA has landed.
            CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
        }
    }
    void download(T* host, size_t n, size_t offset = 0) const {
        TD_CHECK(offset + n <= m_n, "download of ", n, " elements at ", offset, " from a buffer of ", m_n);
        if (n) CUDA_CHECK(cudaMemcpy(host, m_ptr + offset, n * sizeof(T), cudaMemcpyDeviceToHost));
    }
    std::vector<T> toHost() const {
        std::vector<T> v(m_n);
        download(v.data(), m_n);
        return v;
    }
    void zeroAsync(cudaStream_t s) {
        if (m_n) CUDA_CHECK(cudaMemsetAsync(m_ptr, 0, bytes(), s));
    }

private:
    T* m_ptr = nullptr;
    size_t m_n = 0;
};

// A data set resident on the GPU.
struct DeviceDataset {
    int64_t n = 0;
    int h = 0, w = 0, c = 0;
    DeviceBuffer<uint8_t> pixels;  // n*h*w*c, NHWC
    DeviceBuffer<uint8_t> labels;  // n

    void upload(const Dataset& d) {
        n = d.n, h = d.h, w = d.w, c = d.c;
        pixels.allocate(d.pixels.size());
        pixels.upload(d.pixels.data(), d.pixels.size());
        labels.allocate(d.labels.size());
        labels.upload(d.labels.data(), d.labels.size());
    }
};

}  // namespace td::cuda
