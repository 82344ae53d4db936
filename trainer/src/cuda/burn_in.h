#pragma once
// GPU burn-in (TrainDesk's `cluster probe --burn-in`), exported by plugin.cpp: an NCCL
// all-reduce timed between the ranks' GPUs, and a memory test of one GPU.
#include <cstddef>

#include "dist/dist.h"

namespace td::cuda {

struct AllreduceTiming {
    double seconds = 0;  // per all-reduce
    bool correct = false;
};
// Every rank on its local GPU (selectDevice); collective.
AllreduceTiming ncclAllreduceTest(const Dist& dist, size_t count, int warmUp, int iterations);

struct MemoryTestResult {
    size_t bytesTested = 0;
    unsigned long long badWords = 0;
    double seconds = 0;
};
// `fraction` of the device's free memory, written with two address-dependent patterns
// (the word's index, then its complement) and read back on the device.
MemoryTestResult memoryTest(int device, double fraction);

}  // namespace td::cuda
