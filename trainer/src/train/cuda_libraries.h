#pragma once
// Where the CUDA plugin's libraries come from on this node. The portable trainer folder
// carries no CUDA library (they are large and must match the node's driver): cuDNN, cuBLAS,
// the CUDA runtime and NCCL are looked up at start, in this order,
//   1. $TRAINDESK_CUDA_LIBRARY_PATH and $LD_LIBRARY_PATH, folder by folder;
//   2. the system library path (/etc/ld.so.conf and its includes, then the default folders);
//   3. the CUDA Toolkit: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, /usr/local/cuda-*, /opt/cuda
//      (lib64, lib, targets/x86_64-linux/lib);
//   4. Python wheels (nvidia-cudnn-cu13, nvidia-nccl-cu13, ...): nvidia/*/lib in every
//      site-packages or dist-packages found ($VIRTUAL_ENV, $CONDA_PREFIX, $PYTHONPATH,
//      ~/.local, /usr/local/lib, /usr/lib, /opt/conda, ~/miniconda3, ~/anaconda3,
//      ~/miniforge3, ~/.pyenv/versions/*, /opt/*);
// then loaded by full path (dependencies first, RTLD_GLOBAL), so the plugin's own loading
// finds them already there. The driver (libcuda.so.1) is the node's, from the loader's
// usual path; a toolkit's forward-compatibility driver (compat/) is taken only when the
// node's driver supports an older CUDA than the one the backend was built for.
#include <string>
#include <vector>

namespace td {

struct CudaLibrary {
    std::string soname;  // as the plugin (or another of these libraries) names it
    std::string path;    // empty: not found
    std::string source;  // "LD_LIBRARY_PATH", "system library path", "CUDA toolkit", "Python wheel (SITE)"
};

struct CudaLibraryLookup {
    std::vector<CudaLibrary> libraries;  // dependencies before the libraries that need them
    std::vector<std::string> searched;   // every folder looked in, in order
    std::string error;                   // the plugin could not be read

    std::string missing() const;  // "libcudnn.so.9, libnccl.so.2", "" when all were found
    // One line per library: "libcudnn.so.9: PATH (Python wheel (/x/site-packages))", or
    // "libnccl.so.2: not found"; for missing ones, a last line listing where it looked.
    std::string report() const;
};

// The CUDA libraries `plugin` needs, directly or through one another, and where each is.
CudaLibraryLookup locateCudaLibraries(const std::string& plugin);
// Loads the found libraries; false with `error` naming the library and dlerror's text.
bool preloadCudaLibraries(const CudaLibraryLookup& lookup, std::string* error);

// The driver: loads libcuda.so.1 (the node's; its compat/ copy only when the node's driver
// is older than `neededVersion`, CUDA's 1000 * major + 10 * minor). False with `error`
// when there is none. `description`: which file and the CUDA version it supports.
bool loadCudaDriver(int neededVersion, std::string* description, std::string* error);

}  // namespace td
