// Softmax + categorical cross-entropy, in one block: adds dense_2's bias, writes the
// gradient (p - onehot) / valid and dense_2's bias gradient, and the step's loss sum and
// correct count, with the CPU backend's formulas (Keras' 1e-7 clipping for the reported
// loss, first maximum for the prediction) and a fixed summation order.
#include "cuda/kernels.h"
#include "cuda/runtime_check.h"
#include "cuda/softmax_row.cuh"

namespace td::cuda {

namespace {

constexpr int kThreads = kLossThreads;

__global__ void softmaxLossKernel(LossArgs a) {
    __shared__ double lossPart[kThreads];
    __shared__ double correctPart[kThreads];
    const int K = a.classes;
    const float invN = 1.0f / float(a.valid > 0 ? a.valid : 1);
    double lossSum = 0.0, correct = 0.0;
    for (int i = threadIdx.x; i < a.batch; i += blockDim.x)
        softmaxCrossEntropyRow(a.logits + (long long)i * K, a.bias, K, a.labels[i], i < a.valid, invN,
                               a.probs ? a.probs + (long long)i * K : nullptr,
                               a.grad ? a.grad + (long long)i * K : nullptr, &lossSum, &correct);
    lossPart[threadIdx.x] = lossSum;
    correctPart[threadIdx.x] = correct;
    __syncthreads();
    if (threadIdx.x == 0) storeLossTotals(lossPart, correctPart, blockDim.x, a.valid, a.extras, a.accum);
    if (a.grad && a.dbias) {
        for (int k = threadIdx.x; k < K; k += blockDim.x) {
            float s = 0.0f;
            for (int i = 0; i < a.batch; ++i) s += a.grad[(long long)i * K + k];
            a.dbias[k] = s;
        }
    }
}

}  // namespace

void softmaxLoss(const LossArgs& a, cudaStream_t s) {
    TD_LAUNCH(softmaxLossKernel, 1, kThreads, s, a);
    CUDA_CHECK_LAUNCH();
}

}  // namespace td::cuda
