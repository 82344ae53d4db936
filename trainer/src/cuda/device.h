#pragma once
// GPU discovery and selection. probe() never throws: it says how many GPUs this process
// can use and, when none, why (no device, driver too old, compute capability too low...).
// selectDevice() binds the calling rank to the GPU of its local rank.
#include <string>

namespace td::cuda {

// The oldest GPUs the plugin has code for: SASS for sm_90, PTX for compute_80 and newer.
constexpr int kMinComputeCapability = 80;

struct ProbeResult {
    int usable = 0;      // GPUs with compute capability >= kMinComputeCapability
    std::string reason;  // when usable == 0
    std::string detail;  // one line per GPU, then the library versions
};

ProbeResult probe();

struct DeviceInfo {
    int id = 0;
    std::string name;
    int major = 0, minor = 0;
    int sms = 0;
    size_t memoryBytes = 0;
    std::string describe() const;  // "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB)"
};

// cudaSetDevice(localRank % usable GPUs) and a context on it. Throws RuntimeError when
// several ranks of this node would share a GPU under NCCL (NCCL refuses that).
DeviceInfo selectDevice(int localRank, int localSize, bool ncclWillRun);

// "CUDA runtime 13.0, driver 13.0, cuDNN 9.19.0, cuBLAS 13.0.0, NCCL 2.28.3"
std::string libraryVersions();

}  // namespace td::cuda
