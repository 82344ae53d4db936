#pragma once
// Fully connected layer through cuBLAS (bias and ReLU: bias_act.cu). Row-major (N, in)
// inputs and the canonical Keras (in, out) kernel: in cuBLAS' column-major terms the
// kernel is an (out x in) matrix with leading dimension out, so no transposed copy is
// ever made. FP32 compute, or TF32 tensor cores when asked for.
#include <cublas_v2.h>

namespace td::cuda {

class CublasDense {
public:
    CublasDense(int batch, int in, int out, bool tf32) : m_n(batch), m_in(in), m_out(out), m_tf32(tf32) {}

    int batch() const { return m_n; }
    int in() const { return m_in; }
    int out() const { return m_out; }

    void forward(cublasHandle_t h, const float* x, const float* w, float* y) const;          // y = x w
    void backwardWeights(cublasHandle_t h, const float* x, const float* dy, float* dw) const;  // dw = x^T dy
    void backwardData(cublasHandle_t h, const float* w, const float* dy, float* dx) const;     // dx = dy w^T
    double forwardFlops() const { return 2.0 * m_n * m_in * m_out; }

private:
    int m_n, m_in, m_out;
    bool m_tf32;
};

}  // namespace td::cuda
