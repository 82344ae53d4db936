// The entry points of libtraindesk-trainer-cuda.so, loaded by train/cuda_plugin.cpp.
#include <cstring>
#include <exception>

#include "cuda/burn_in.h"
#include "cuda/cuda_backend.h"
#include "cuda/device.h"
#include "train/cuda_plugin.h"
#include "util/log.h"

#define TD_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

void copyString(const std::string& s, char* dst, size_t len) {
    if (!dst || len == 0) return;
    std::strncpy(dst, s.c_str(), len - 1);
    dst[len - 1] = '\0';
}

}  // namespace

TD_PLUGIN_EXPORT int td_cuda_plugin_abi(void) { return TD_CUDA_PLUGIN_ABI; }

TD_PLUGIN_EXPORT size_t td_cuda_plugin_setup_size(void) { return sizeof(td::BackendSetup); }

TD_PLUGIN_EXPORT int td_cuda_probe(char* reason, size_t reasonLen, char* detail, size_t detailLen) {
    try {
        const td::cuda::ProbeResult r = td::cuda::probe();
        copyString(r.reason, reason, reasonLen);
        copyString(r.detail, detail, detailLen);
        return r.usable;
    } catch (const std::exception& e) {
        copyString(e.what(), reason, reasonLen);
        return 0;
    }
}

TD_PLUGIN_EXPORT td::Backend* td_cuda_create_backend(const td::BackendSetup* setup) {
    // This library has its own copy of the logging state.
    td::log::setRank(setup->dist->rank(), setup->dist->size());
    return td::cuda::makeCudaBackend(*setup).release();
}

TD_PLUGIN_EXPORT int td_cuda_allreduce_test(const td::Dist* dist, size_t count, int warmUp, int iterations, double* seconds,
                                            int* correct, char* error, size_t errorLen) {
    try {
        const td::cuda::AllreduceTiming t = td::cuda::ncclAllreduceTest(*dist, count, warmUp, iterations);
        *seconds = t.seconds;
        *correct = t.correct ? 1 : 0;
        return 1;
    } catch (const std::exception& e) {
        copyString(e.what(), error, errorLen);
        return 0;
    }
}

TD_PLUGIN_EXPORT int td_cuda_memory_test(int device, double fraction, size_t* bytesTested, unsigned long long* badWords,
                                         double* seconds, char* error, size_t errorLen) {
    try {
        const td::cuda::MemoryTestResult r = td::cuda::memoryTest(device, fraction);
        *bytesTested = r.bytesTested;
        *badWords = r.badWords;
        *seconds = r.seconds;
        return 1;
    } catch (const std::exception& e) {
        copyString(e.what(), error, errorLen);
        return 0;
    }
}
