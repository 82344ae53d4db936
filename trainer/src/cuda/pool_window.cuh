#pragma once
// The 2x2 max-pooling window (device code shared by pool.cu and fused.cu).
#include "cuda/dropout.cuh"
#include "cuda/kernels.h"

namespace td::cuda {

// Index of the first maximum of a window's 4 values (row-major), and that maximum. The
// value is carried beside the index (not read back as v[best]) so that v stays in
// registers: an array indexed at run time would live in local memory.
__device__ inline int firstMaxOf4(const float v[4], float* maxOut) {
    int best = 0;
    float m = v[0];
    for (int k = 1; k < 4; ++k)
        if (v[k] > m) best = k, m = v[k];
    *maxOut = m;
    return best;
}

// Index (0..3, row-major in the window) of the window's first maximum.
__device__ inline int windowArgmax(const float* x, const Tensor4& xt, int n, int c, int ho, int wo, float* maxOut) {
    const long long base = offsetOf(xt, n, c, 2 * ho, 2 * wo);
    const float v[4] = {x[base], x[base + xt.sw], x[base + xt.sh], x[base + xt.sh + xt.sw]};
    return firstMaxOf4(v, maxOut);
}

}  // namespace td::cuda
