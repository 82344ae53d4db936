// RMSprop as Keras 2 defines it, in one kernel over the flat parameter buffer (float4
// loads and stores), reading lr_t from the device-side iteration count. The last block
// to finish advances the step counters and adds the step's loss/accuracy sums (which rode
// along in the all-reduce) to the window the host reads at log points.
#include <algorithm>

#include "cuda/kernels.h"
#include "cuda/runtime_check.h"

namespace td::cuda {

namespace {

__global__ void rmspropKernel(RmspropArgs a) {
    StepCounters* c = a.counters;
    // Every block reads the iteration before it takes its ticket; the counters only move
    // after the last ticket, so all blocks use the same lr_t.
    const float lr = float(a.lr / (1.0 + a.decay * double(c->iteration)));
    const float rho = a.rho, oneMinusRho = 1.0f - a.rho, eps = a.epsilon, gs = a.gradScale;
    float4* p4 = reinterpret_cast<float4*>(a.params);
    float4* a4 = reinterpret_cast<float4*>(a.accum);
    const float4* g4 = reinterpret_cast<const float4*>(a.grads);
    const size_t n4 = a.n / 4;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += size_t(gridDim.x) * blockDim.x) {
        const float4 g = g4[i];
        float4 acc = a4[i];
        float4 p = p4[i];
        const float gx = g.x * gs, gy = g.y * gs, gz = g.z * gs, gw = g.w * gs;
        acc.x = rho * acc.x + oneMinusRho * gx * gx;
        acc.y = rho * acc.y + oneMinusRho * gy * gy;
        acc.z = rho * acc.z + oneMinusRho * gz * gz;
        acc.w = rho * acc.w + oneMinusRho * gw * gw;
        p.x -= lr * gx / (sqrtf(acc.x) + eps);
        p.y -= lr * gy / (sqrtf(acc.y) + eps);
        p.z -= lr * gz / (sqrtf(acc.z) + eps);
        p.w -= lr * gw / (sqrtf(acc.w) + eps);
        a4[i] = acc;
        p4[i] = p;
    }
    __syncthreads();
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(&c->ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        __threadfence();
        c->iteration += 1;
        c->stepInEpoch += 1;
        const float* extras = a.grads + a.n;
        for (int k = 0; k < 3; ++k) c->window[k] += double(__ldcg(&extras[k])) * a.extrasScale;
        c->ticket = 0u;
    }
}

__global__ void setEpochKernel(StepCounters* c, long long epoch) {
    c->epoch = epoch;
    c->stepInEpoch = 0;
}

__global__ void setIterationKernel(StepCounters* c, long long iteration) { c->iteration = iteration; }

}  // namespace

void rmspropStep(const RmspropArgs& a, cudaStream_t s) {
    TD_CHECK(a.n % 4 == 0, "RMSprop buffer of ", a.n, " floats is not a multiple of 4");
    const size_t n4 = a.n / 4;
    const unsigned int blocks = unsigned(std::min<size_t>((n4 + 255) / 256, 1024));
    TD_LAUNCH(rmspropKernel, std::max(blocks, 1u), 256, s, a);
    CUDA_CHECK_LAUNCH();
}

void setEpoch(StepCounters* c, long long epoch, cudaStream_t s) {
    TD_LAUNCH(setEpochKernel, 1, 1, s, c, epoch);
    CUDA_CHECK_LAUNCH();
}

void setIteration(StepCounters* c, long long iteration, cudaStream_t s) {
    TD_LAUNCH(setIterationKernel, 1, 1, s, c, iteration);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
