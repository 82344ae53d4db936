#include "cuda/burn_in.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "cuda/cuda_check.h"
#include "cuda/device.h"
#include "cuda/nccl_comm.h"

namespace td::cuda {

namespace {

__global__ void fillKernel(float* data, size_t n, float value) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        data[i] = value;
}

// Counts the elements that are not `expected`.
__global__ void countWrongKernel(const float* data, size_t n, float expected, unsigned long long* wrong) {
    unsigned long long mine = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        mine += data[i] != expected;
    if (mine) atomicAdd(wrong, mine);
}

__global__ void patternKernel(unsigned int* words, size_t n, bool complement) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const unsigned int v = static_cast<unsigned int>(i * 2654435761u);
        words[i] = complement ? ~v : v;
    }
}

__global__ void checkPatternKernel(const unsigned int* words, size_t n, bool complement, unsigned long long* bad) {
    unsigned long long mine = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const unsigned int v = static_cast<unsigned int>(i * 2654435761u);
        mine += words[i] != (complement ? ~v : v);
    }
    if (mine) atomicAdd(bad, mine);
}

constexpr int threads = 256;
constexpr int blocks = 1024;

double secondsSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

AllreduceTiming ncclAllreduceTest(const Dist& dist, size_t count, int warmUp, int iterations) {
    selectDevice(dist.localRank(), dist.localSize(), true);
    NcclComm comm(dist);
    float* data = nullptr;
    unsigned long long* wrong = nullptr;
    CUDA_CHECK(cudaMalloc(&data, count * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&wrong, sizeof *wrong));
    CUDA_CHECK(cudaMemset(wrong, 0, sizeof *wrong));
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreate(&stream));
    const float expected = float(dist.size()) * float(dist.size() + 1) / 2.0f;
    AllreduceTiming t;
    for (int i = 0; i < warmUp + iterations; ++i) {
        fillKernel<<<blocks, threads, 0, stream>>>(data, count, float(dist.rank() + 1));
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaStreamSynchronize(stream));
        dist.barrier();
        const auto start = std::chrono::steady_clock::now();
        comm.allreduceSum(data, count, stream);
        // Polled, so that a lost peer ends the wait with NCCL's error instead of a hang.
        while (cudaStreamQuery(stream) == cudaErrorNotReady) comm.checkAsyncError();
        CUDA_CHECK(cudaStreamSynchronize(stream));
        if (i >= warmUp) t.seconds += secondsSince(start);
        countWrongKernel<<<blocks, threads, 0, stream>>>(data, count, expected, wrong);
        CUDA_CHECK_LAUNCH();
    }
    unsigned long long wrongTotal = 0;
    CUDA_CHECK(cudaMemcpyAsync(&wrongTotal, wrong, sizeof wrongTotal, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    cudaStreamDestroy(stream);
    cudaFree(wrong);
    cudaFree(data);
    t.seconds /= std::max(iterations, 1);
    t.correct = wrongTotal == 0;
    return t;
}

MemoryTestResult memoryTest(int device, double fraction) {
    CUDA_CHECK(cudaSetDevice(device));
    size_t freeBytes = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    MemoryTestResult r;
    size_t bytes = size_t(double(freeBytes) * std::clamp(fraction, 0.01, 0.95)) & ~size_t(255);
    unsigned int* words = nullptr;
    // Another process may have taken some meanwhile: ask for less until it fits.
    while (bytes >= (size_t(64) << 20) && cudaMalloc(&words, bytes) != cudaSuccess) {
        cudaGetLastError();
        bytes = bytes / 8 * 7;
    }
    if (!words) TD_FAIL("GPU ", device, ": cannot allocate memory to test (", freeBytes >> 20, " MiB free)");
    unsigned long long* bad = nullptr;
    CUDA_CHECK(cudaMalloc(&bad, sizeof *bad));
    CUDA_CHECK(cudaMemset(bad, 0, sizeof *bad));
    const size_t n = bytes / sizeof(unsigned int);
    const auto start = std::chrono::steady_clock::now();
    for (bool complement : {false, true}) {
        patternKernel<<<blocks, threads>>>(words, n, complement);
        CUDA_CHECK_LAUNCH();
        checkPatternKernel<<<blocks, threads>>>(words, n, complement, bad);
        CUDA_CHECK_LAUNCH();
    }
    CUDA_CHECK(cudaMemcpy(&r.badWords, bad, sizeof r.badWords, cudaMemcpyDeviceToHost));
    r.seconds = secondsSince(start);
    r.bytesTested = bytes;
    cudaFree(bad);
    cudaFree(words);
    return r;
}

}  // namespace td::cuda
