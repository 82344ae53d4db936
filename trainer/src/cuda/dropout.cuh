#pragma once
// Dropout masks on the GPU (device code shared by bias_act.cu and pool.cu). Like the CPU
// backend's, the mask is a pure function of (seed, epoch, layer, position in the epoch,
// element), so it does not depend on the number of ranks or on where a resumed run
// restarted; the element index is the logical NHWC index within the sample, so the
// masks are the same in either GPU layout. (They differ from the CPU backend's masks,
// whose element index follows oneDNN's blocked layouts.) Nothing is stored: the backward
// pass derives the mask from the dropped output (zero where dropped, see pool.cu).
#include <cstdint>

#include "cuda/kernels.h"
#include "util/rng.h"

namespace td::cuda {

__device__ inline uint32_t hash32(uint32_t x) {  // lowbias32
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// Key of sample i of the current step.
__device__ inline uint32_t dropoutSampleKey(const DropoutArgs& d, int i) {
    const long long epoch = d.counters->epoch;
    const long long step = d.counters->stepInEpoch;
    const uint64_t pos = uint64_t((step * d.workers + d.rank) * d.batch + i);
    const uint64_t layerKey = rng::key(rng::key(d.seed, rng::kDropout, uint64_t(epoch)), d.layer);
    return uint32_t(rng::key(layerKey, pos));
}

// The factor (0 or 1/(1-rate)) of element j of the sample with key k.
__device__ inline float dropoutFactor(const DropoutArgs& d, uint32_t k, uint32_t j) {
    const uint32_t h = hash32(k ^ (j * 0x9e3779b9u));
    return (h >> 8) >= d.threshold ? d.scale : 0.0f;
}

// Decodes a linear memory index of a dense tensor into (n, c, h, w).
__device__ inline void decode(const Tensor4& t, long long idx, int& n, int& c, int& h, int& w) {
    if (t.nhwc) {
        c = int(idx % t.c);
        idx /= t.c;
        w = int(idx % t.w);
        idx /= t.w;
        h = int(idx % t.h);
        n = int(idx / t.h);
    } else {
        w = int(idx % t.w);
        idx /= t.w;
        h = int(idx % t.h);
        idx /= t.h;
        c = int(idx % t.c);
        n = int(idx / t.c);
    }
}

__device__ inline long long offsetOf(const Tensor4& t, int n, int c, int h, int w) {
    return n * t.sn + c * t.sc + h * t.sh + w * t.sw;
}

inline unsigned int blocksFor(long long n, int threads) {
    long long b = (n + threads - 1) / threads;
    return (unsigned int)(b < 1 ? 1 : b);
}

}  // namespace td::cuda
