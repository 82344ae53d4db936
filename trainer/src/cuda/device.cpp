#include "cuda/device.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda/cuda_check.h"

namespace td::cuda {

namespace {

std::string errorText(const char* call, cudaError_t e) {
    return cat(call, ": ", cudaGetErrorName(e), ": ", cudaGetErrorString(e));
}

std::string versionString(int v) {  // CUDA's 1000 * major + 10 * minor
    return cat(v / 1000, ".", (v % 1000) / 10);
}

}  // namespace

std::string libraryVersions() {
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    const size_t dnn = cudnnGetVersion();  // major * 10000 + minor * 100 + patch (cuDNN 9)
    int blasMajor = 0, blasMinor = 0, blasPatch = 0;
    cublasGetProperty(MAJOR_VERSION, &blasMajor);
    cublasGetProperty(MINOR_VERSION, &blasMinor);
    cublasGetProperty(PATCH_LEVEL, &blasPatch);
    int nccl = 0;
    ncclGetVersion(&nccl);  // major * 10000 + minor * 100 + patch (NCCL >= 2.9)
    return cat("CUDA runtime ", versionString(rt), ", driver ", versionString(drv), ", cuDNN ", dnn / 10000, ".",
               (dnn % 10000) / 100, ".", dnn % 100, ", cuBLAS ", blasMajor, ".", blasMinor, ".", blasPatch,
               ", NCCL ", nccl / 10000, ".", (nccl % 10000) / 100, ".", nccl % 100);
}

std::string DeviceInfo::describe() const {
    char mem[32];
    std::snprintf(mem, sizeof mem, "%.1f GiB", double(memoryBytes) / (1024.0 * 1024.0 * 1024.0));
    return cat(name, " (sm_", major, minor, ", ", sms, " SMs, ", mem, ")");
}

ProbeResult probe() {
    ProbeResult r;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        cudaGetLastError();  // not sticky, but leave nothing behind
        r.reason = errorText("cudaGetDeviceCount", e);
        return r;
    }
    if (count == 0) {
        r.reason = "cudaGetDeviceCount found no CUDA device";
        return r;
    }
    std::string tooOld;
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp p{};
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
        const int cc = p.major * 10 + p.minor;
        DeviceInfo info{d, p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem};
        r.detail += cat("gpu ", d, ": ", info.describe(), cc < kMinComputeCapability ? " [too old]" : "", "\n");
        if (cc >= kMinComputeCapability)
            ++r.usable;
        else
            tooOld = cat(p.name, " has compute capability ", p.major, ".", p.minor, "; this build needs >= ",
                         kMinComputeCapability / 10, ".", kMinComputeCapability % 10);
    }
    if (r.usable == 0) r.reason = tooOld.empty() ? "cudaGetDeviceProperties failed on every GPU" : tooOld;
    r.detail += libraryVersions();
    return r;
}

DeviceInfo selectDevice(int localRank, int localSize, bool ncclWillRun) {
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    std::vector<int> usable;
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp p{};
        CUDA_CHECK(cudaGetDeviceProperties(&p, d));
        if (p.major * 10 + p.minor >= kMinComputeCapability) usable.push_back(d);
    }
    TD_CHECK(!usable.empty(), "no usable NVIDIA GPU");
    // Ranks of a node see the same GPUs unless the launcher set CUDA_VISIBLE_DEVICES per rank
    // (then NCCL reports duplicates itself).
    if (ncclWillRun && localSize > int(usable.size()) && !std::getenv("CUDA_VISIBLE_DEVICES"))
        TD_FAIL(localSize, " ranks on this node but only ", usable.size(),
                " usable GPU(s): NCCL needs one GPU per rank (start at most ", usable.size(),
                " ranks per node, e.g. mpirun --map-by ppr:", usable.size(), ":node)");
    const int id = usable[size_t(localRank) % usable.size()];
    CUDA_CHECK(cudaSetDevice(id));
    CUDA_CHECK(cudaFree(nullptr));  // create the context now: errors surface here, not later
    cudaDeviceProp p{};
    CUDA_CHECK(cudaGetDeviceProperties(&p, id));
    return DeviceInfo{id, p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem};
}

std::string currentGpuMemory() {
    int id = -1;
    cudaDeviceProp p{};
    size_t freeBytes = 0, totalBytes = 0;
    if (cudaGetDevice(&id) != cudaSuccess || cudaGetDeviceProperties(&p, id) != cudaSuccess) {
        cudaGetLastError();
        return "the current GPU";
    }
    std::string s = cat("GPU ", id, " (", p.name);
    if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess) {
        char buf[64];
        std::snprintf(buf, sizeof buf, ", %.1f of %.1f GiB free", double(freeBytes) / (1 << 30),
                      double(totalBytes) / (1 << 30));
        s += buf;
    }
    cudaGetLastError();
    return s + ")";
}

}  // namespace td::cuda
