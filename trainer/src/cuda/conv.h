#pragma once
// 3x3 stride-1 convolution ("same" or "valid") through cuDNN's convolution API: forward,
// backward-filter and backward-data, each with the algorithm cudnnFind*Ex measured fastest
// for these shapes (with --deterministic: the heuristics' first deterministic algorithm),
// and with TF32 tensor cores only when asked for. Bias and ReLU are applied by bias_act.cu.
// Filters are stored OIHW (NCHW activations) or OHWI (NHWC, cuDNN's KRSC).
#include <cudnn.h>

#include <string>

#include "cuda/kernels.h"

namespace td::cuda {

class CudnnConv {
public:
    struct Config {
        int batch = 32, inC = 3, h = 32, w = 32, outC = 32;
        bool same = true;
        bool nhwc = true;
        bool tf32 = false;
        bool deterministic = false;
        bool backward = true;  // backward-filter algorithms (training)
        bool needDx = true;    // backward-data (false for the first layer and for inference)
    };
    CudnnConv(const Config& cfg);
    ~CudnnConv();
    CudnnConv(const CudnnConv&) = delete;
    CudnnConv& operator=(const CudnnConv&) = delete;

    const Config& config() const { return m_cfg; }
    Tensor4 outShape() const { return m_out; }

    // Runs the candidate algorithms on these buffers (set-up time: they are overwritten)
    // and keeps the fastest that fits in scratchBytes. fwdHandle runs forward and
    // backward-data, bwdHandle backward-filter (they may be the same).
    void selectAlgorithms(cudnnHandle_t fwdHandle, cudnnHandle_t bwdHandle, const float* x, const float* w, float* y,
                          float* dy, float* dx, float* dw, void* scratch, size_t scratchBytes);
    size_t forwardWorkspace() const { return m_fwdWs; }      // forward + backward-data
    size_t backwardFilterWorkspace() const { return m_bwfWs; }

    void forward(cudnnHandle_t h, const float* x, const float* w, float* y, void* ws, size_t wsBytes) const;
    void backwardFilter(cudnnHandle_t h, const float* x, const float* dy, float* dw, void* ws, size_t wsBytes) const;
    void backwardData(cudnnHandle_t h, const float* w, const float* dy, float* dx, void* ws, size_t wsBytes) const;

    std::string algorithms() const;  // for --profile and the log
    double forwardFlops() const { return 2.0 * m_out.size() * m_cfg.inC * 9; }

private:
    Config m_cfg;
    Tensor4 m_in, m_out;
    cudnnTensorDescriptor_t m_xDesc = nullptr, m_yDesc = nullptr;
    cudnnFilterDescriptor_t m_wDesc = nullptr;
    // One convolution descriptor per direction: each carries its algorithm's math type.
    cudnnConvolutionDescriptor_t m_fwdConv = nullptr, m_bwfConv = nullptr, m_bwdConv = nullptr;
    cudnnConvolutionFwdAlgo_t m_fwdAlgo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    cudnnConvolutionBwdFilterAlgo_t m_bwfAlgo = CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0;
    cudnnConvolutionBwdDataAlgo_t m_bwdAlgo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_0;
    cudnnMathType_t m_fwdMath = CUDNN_FMA_MATH, m_bwfMath = CUDNN_FMA_MATH, m_bwdMath = CUDNN_FMA_MATH;
    size_t m_fwdWs = 0, m_bwfWs = 0;
    bool m_selected = false;
};

}  // namespace td::cuda
