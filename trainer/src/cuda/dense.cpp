#include "cuda/dense.h"

#include "cuda/cuda_check.h"

namespace td::cuda {

namespace {

void gemm(cublasHandle_t h, bool tf32, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const float* a,
          int lda, const float* b, int ldb, float* c, int ldc) {
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasGemmEx(h, ta, tb, m, n, k, &one, a, CUDA_R_32F, lda, b, CUDA_R_32F, ldb, &zero, c, CUDA_R_32F,
                              ldc, tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

}  // namespace

// Row-major X (N x I), W (I x O), Y (N x O) are column-major X^T (I x N), W^T (O x I), Y^T (O x N).
void CublasDense::forward(cublasHandle_t h, const float* x, const float* w, float* y) const {
    // Y^T = W^T X^T
    gemm(h, m_tf32, CUBLAS_OP_N, CUBLAS_OP_N, m_out, m_n, m_in, w, m_out, x, m_in, y, m_out);
}

void CublasDense::backwardWeights(cublasHandle_t h, const float* x, const float* dy, float* dw) const {
    // dW^T (O x I) = dY^T (O x N) X (N x I)
    gemm(h, m_tf32, CUBLAS_OP_N, CUBLAS_OP_T, m_out, m_in, m_n, dy, m_out, x, m_in, dw, m_out);
}

void CublasDense::backwardData(cublasHandle_t h, const float* w, const float* dy, float* dx) const {
    // dX^T (I x N) = W (I x O) dY^T (O x N)
    gemm(h, m_tf32, CUBLAS_OP_T, CUBLAS_OP_N, m_in, m_n, m_out, w, m_out, dy, m_out, dx, m_in);
}

}  // namespace td::cuda
