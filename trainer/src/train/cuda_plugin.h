#pragma once
// The CUDA backend is a plugin (libtraindesk-trainer-cuda.so) loaded at run time, so the
// trainer itself never links CUDA, cuDNN, cuBLAS or NCCL and runs on machines without them.
// The plugin is built whenever CMake finds the CUDA Toolkit with cuDNN and NCCL
// (TRAINDESK_HAVE_CUDA); it is looked for beside the executable, in ../lib/traindesk
// relative to it (installed layout), or at $TRAINDESK_CUDA_PLUGIN.
#include <cstddef>
#include <memory>
#include <string>

#include "train/backend.h"

// The C entry points of the plugin (see src/cuda/plugin.cpp). The plugin and the trainer
// are built together, so C++ objects cross the boundary; the ABI number and the size of
// BackendSetup guard against a stale plugin.
#define TD_CUDA_PLUGIN_ABI 1
extern "C" {
typedef int (*td_cuda_plugin_abi_fn)(void);
typedef size_t (*td_cuda_plugin_setup_size_fn)(void);
// Returns the number of usable GPUs (0: none; reason says why); detail describes them.
typedef int (*td_cuda_probe_fn)(char* reason, size_t reasonLen, char* detail, size_t detailLen);
// Creates the backend; throws td::RuntimeError on failure.
typedef td::Backend* (*td_cuda_create_backend_fn)(const td::BackendSetup* setup);
// Burn-in (src/cuda/burn_in.cu). Each returns 1, or 0 with `error` set.
// An NCCL all-reduce of `count` floats over the ranks' GPUs, timed over `iterations` after
// `warmUp`: seconds per all-reduce and whether every sum was right.
typedef int (*td_cuda_allreduce_test_fn)(const td::Dist* dist, size_t count, int warmUp, int iterations,
                                         double* seconds, int* correct, char* error, size_t errorLen);
// Writes and reads back `fraction` of device `device`'s free memory with address-dependent
// patterns: the bytes tested and the words that read back wrong.
typedef int (*td_cuda_memory_test_fn)(int device, double fraction, size_t* bytesTested, unsigned long long* badWords,
                                      double* seconds, char* error, size_t errorLen);
}

namespace td {

struct CudaAvailability {
    bool built = false;   // this build has the CUDA backend
    bool usable = false;  // the plugin loaded and at least one usable GPU was found
    int devices = 0;
    std::string reason;   // why not usable
    std::string detail;   // GPUs found, library versions
    // Where the driver and each CUDA library came from, or what is missing and where the
    // trainer looked (train/cuda_libraries.h); --gpu-info prints them.
    std::string driver, libraries;
};

// Cached after the first call. Cheap without an NVIDIA driver (no plugin is loaded then).
const CudaAvailability& probeCuda();
// Only after probeCuda() said usable; throws RuntimeError otherwise.
std::unique_ptr<Backend> makeCudaBackend(const BackendSetup& setup);

// Burn-in through the plugin; throw RuntimeError without a usable GPU or on failure.
struct CudaAllreduceResult {
    double seconds = 0;  // per all-reduce
    bool correct = false;
};
CudaAllreduceResult cudaAllreduceTest(const Dist& dist, size_t count, int warmUp, int iterations);
struct CudaMemoryTestResult {
    size_t bytesTested = 0;
    unsigned long long badWords = 0;
    double seconds = 0;
};
CudaMemoryTestResult cudaMemoryTest(int device, double fraction);

}  // namespace td
