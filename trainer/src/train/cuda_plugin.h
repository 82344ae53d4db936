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

}  // namespace td
