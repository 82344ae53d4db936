#include "train/gpu_memory_test.h"

#include <cstdio>
#include <exception>

#include "io/json.h"
#include "train/cuda_plugin.h"

namespace td {

namespace {
// Most of the free memory, leaving room for the context and other processes.
constexpr double testedFraction = 0.9;
}

int runGpuMemoryTest() {
    const CudaAvailability& cuda = probeCuda();
    if (!cuda.usable) {
        std::fprintf(stderr, "traindesk-trainer: error: no usable NVIDIA GPU: %s\n", cuda.reason.c_str());
        return 1;
    }
    bool allGood = true;
    for (int device = 0; device < cuda.devices; ++device) {
        JsonObject j;
        j.add("kind", "gpu_memory").add("device", device);
        try {
            const CudaMemoryTestResult r = cudaMemoryTest(device, testedFraction);
            j.add("bytes", uint64_t(r.bytesTested)).add("bad_words", uint64_t(r.badWords)).add("seconds", r.seconds, "%.3f");
            allGood = allGood && r.badWords == 0;
        } catch (const std::exception& e) {
            j.add("error", std::string(e.what()));
            allGood = false;
        }
        std::printf("%s\n", j.str().c_str());
    }
    std::fflush(stdout);
    return allGood ? 0 : 1;
}

}  // namespace td
