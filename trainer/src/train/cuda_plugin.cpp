#include "train/cuda_plugin.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "train/cuda_libraries.h"
#include "util/check.h"

#ifndef TRAINDESK_CUDA_PLUGIN_NAME
#define TRAINDESK_CUDA_PLUGIN_NAME "libtraindesk-trainer-cuda.so"
#endif
#ifndef TRAINDESK_CUDA_RUNTIME_VERSION
#define TRAINDESK_CUDA_RUNTIME_VERSION 0
#endif
#ifndef TRAINDESK_CUDA_PLUGIN_RELDIR
#define TRAINDESK_CUDA_PLUGIN_RELDIR "../lib/traindesk"
#endif

namespace td {

namespace {

struct Plugin {
    void* handle = nullptr;
    td_cuda_create_backend_fn create = nullptr;
};

Plugin g_plugin;

#if defined(TRAINDESK_HAVE_CUDA) && TRAINDESK_HAVE_CUDA
std::string exeDir() {
    std::vector<char> buf(4096);
    const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0) return ".";
    std::string p(buf.data(), size_t(n));
    const size_t slash = p.rfind('/');
    return slash == std::string::npos ? "." : p.substr(0, slash);
}

std::string dlerrorString() {
    const char* e = dlerror();
    return e ? e : "unknown dlopen error";
}
#endif

CudaAvailability probeOnce() {
    CudaAvailability a;
#if defined(TRAINDESK_HAVE_CUDA) && TRAINDESK_HAVE_CUDA
    a.built = true;
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("TRAINDESK_CUDA_PLUGIN"); env && *env) {
        candidates.push_back(env);
    } else {
        const std::string dir = exeDir();
        candidates.push_back(dir + "/" TRAINDESK_CUDA_PLUGIN_NAME);
        candidates.push_back(dir + "/" TRAINDESK_CUDA_PLUGIN_RELDIR "/" TRAINDESK_CUDA_PLUGIN_NAME);
    }
    std::string path, tried;
    for (const std::string& p : candidates) {
        if (access(p.c_str(), F_OK) == 0) {
            path = p;
            break;
        }
        tried += (tried.empty() ? "" : ", ") + p;
    }
    if (path.empty()) {
        a.reason = "the CUDA backend plugin was not found (looked for " + tried + ")";
        return a;
    }
    // Where its libraries are, reported whether or not there is a driver (stat calls only).
    const CudaLibraryLookup libs = locateCudaLibraries(path);
    a.libraries = libs.report();
    // No driver, no GPU: answer without loading the CUDA libraries.
    std::string driverError;
    if (!loadCudaDriver(TRAINDESK_CUDA_RUNTIME_VERSION, &a.driver, &driverError)) {
        a.reason = driverError;
        return a;
    }
    if (!libs.error.empty()) {
        a.reason = libs.error;
        return a;
    }
    if (!libs.missing().empty()) {
        a.reason = "CUDA libraries not found: " + libs.missing() + " (see the list of where the trainer looked)";
        return a;
    }
    if (std::string error; !preloadCudaLibraries(libs, &error)) {
        a.reason = error;
        return a;
    }
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        a.reason = "cannot load the CUDA backend " + path + ": " + dlerrorString();
        return a;
    }
    auto abi = reinterpret_cast<td_cuda_plugin_abi_fn>(dlsym(h, "td_cuda_plugin_abi"));
    auto setupSize = reinterpret_cast<td_cuda_plugin_setup_size_fn>(dlsym(h, "td_cuda_plugin_setup_size"));
    auto probe = reinterpret_cast<td_cuda_probe_fn>(dlsym(h, "td_cuda_probe"));
    auto create = reinterpret_cast<td_cuda_create_backend_fn>(dlsym(h, "td_cuda_create_backend"));
    if (!abi || !setupSize || !probe || !create) {
        a.reason = "the CUDA backend " + path + " lacks its entry points";
        return a;
    }
    if (abi() != TD_CUDA_PLUGIN_ABI || setupSize() != sizeof(BackendSetup)) {
        a.reason = "the CUDA backend " + path + " was built from other sources than this trainer";
        return a;
    }
    char reason[512] = {0}, detail[1024] = {0};
    a.devices = probe(reason, sizeof reason, detail, sizeof detail);
    a.detail = detail;
    if (a.devices <= 0) {
        a.reason = reason[0] ? reason : "no usable NVIDIA GPU";
        return a;
    }
    a.usable = true;
    g_plugin.handle = h;
    g_plugin.create = create;
    return a;
#else
    a.reason = "this build has no CUDA backend (built without the CUDA Toolkit, cuDNN and NCCL)";
#endif
    return a;
}

}  // namespace

const CudaAvailability& probeCuda() {
    static const CudaAvailability a = probeOnce();
    return a;
}

std::unique_ptr<Backend> makeCudaBackend(const BackendSetup& setup) {
    const CudaAvailability& a = probeCuda();
    if (!a.usable || !g_plugin.create) throw RuntimeError("no usable NVIDIA GPU: " + a.reason);
    return std::unique_ptr<Backend>(g_plugin.create(&setup));
}

namespace {

// An entry point of the loaded plugin, or an error naming it (an older plugin lacks it).
void* pluginSymbol(const char* name) {
    const CudaAvailability& a = probeCuda();
    if (!a.usable || !g_plugin.handle) throw RuntimeError("no usable NVIDIA GPU: " + a.reason);
    void* f = dlsym(g_plugin.handle, name);
    if (!f) throw RuntimeError(std::string("the CUDA backend lacks ") + name + " (built from older sources)");
    return f;
}

}  // namespace

CudaAllreduceResult cudaAllreduceTest(const Dist& dist, size_t count, int warmUp, int iterations) {
    auto f = reinterpret_cast<td_cuda_allreduce_test_fn>(pluginSymbol("td_cuda_allreduce_test"));
    CudaAllreduceResult r;
    int correct = 0;
    char error[512] = {0};
    if (!f(&dist, count, warmUp, iterations, &r.seconds, &correct, error, sizeof error))
        throw RuntimeError(std::string("NCCL all-reduce test: ") + error);
    r.correct = correct != 0;
    return r;
}

CudaMemoryTestResult cudaMemoryTest(int device, double fraction) {
    auto f = reinterpret_cast<td_cuda_memory_test_fn>(pluginSymbol("td_cuda_memory_test"));
    CudaMemoryTestResult r;
    char error[512] = {0};
    if (!f(device, fraction, &r.bytesTested, &r.badWords, &r.seconds, error, sizeof error))
        throw RuntimeError(std::string("GPU memory test: ") + error);
    return r;
}

}  // namespace td
