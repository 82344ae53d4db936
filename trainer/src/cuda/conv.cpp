#include "cuda/conv.h"

#include <algorithm>

#include "cuda/cuda_check.h"

namespace td::cuda {

namespace {

const char* fwdName(cudnnConvolutionFwdAlgo_t a) {
    static const char* names[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
                                  "FFT",           "FFT_TILING",            "WINOGRAD", "WINOGRAD_NONFUSED"};
    return unsigned(a) < sizeof names / sizeof names[0] ? names[a] : "?";
}
const char* bwfName(cudnnConvolutionBwdFilterAlgo_t a) {
    static const char* names[] = {"ALGO_0", "ALGO_1", "FFT", "ALGO_3", "WINOGRAD", "WINOGRAD_NONFUSED", "FFT_TILING"};
    return unsigned(a) < sizeof names / sizeof names[0] ? names[a] : "?";
}
const char* bwdName(cudnnConvolutionBwdDataAlgo_t a) {
    static const char* names[] = {"ALGO_0", "ALGO_1", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
    return unsigned(a) < sizeof names / sizeof names[0] ? names[a] : "?";
}
const char* mathName(cudnnMathType_t m) { return m == CUDNN_FMA_MATH ? "fp32" : m == CUDNN_DEFAULT_MATH ? "default" : "tf32"; }

bool isTensorOp(cudnnMathType_t m) { return m == CUDNN_TENSOR_OP_MATH || m == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION; }

// The first (fastest, as cuDNN sorts them) acceptable result.
template <typename Perf>
const Perf* pick(const Perf* res, int n, bool tf32, bool deterministic, size_t limit) {
    for (int i = 0; i < n; ++i) {
        const Perf& r = res[i];
        if (r.status != CUDNN_STATUS_SUCCESS || r.memory > limit) continue;
        if (deterministic && r.determinism != CUDNN_DETERMINISTIC) continue;
        if (!tf32 && isTensorOp(r.mathType)) continue;
        return &r;
    }
    return nullptr;
}

template <typename Perf>
std::string listResults(const Perf* res, int n, const char* (*name)(decltype(Perf{}.algo))) {
    std::string s;
    for (int i = 0; i < n; ++i)
        s += cat(i ? ", " : "", name(res[i].algo), "(", cudnnGetErrorString(res[i].status), ", ", res[i].memory, " B, ",
                 mathName(res[i].mathType), res[i].determinism == CUDNN_DETERMINISTIC ? "" : ", non-det", ")");
    return s.empty() ? "none" : s;
}

}  // namespace

CudnnConv::CudnnConv(const Config& cfg) : m_cfg(cfg) {
    const int pad = cfg.same ? 1 : 0;
    const int oh = cfg.h + 2 * pad - 2, ow = cfg.w + 2 * pad - 2;
    TD_CHECK(oh > 0 && ow > 0, "convolution: input ", cfg.h, "x", cfg.w, " too small for a 3x3 valid convolution");
    m_in = Tensor4::make(cfg.batch, cfg.inC, cfg.h, cfg.w, cfg.nhwc);
    m_out = Tensor4::make(cfg.batch, cfg.outC, oh, ow, cfg.nhwc);
    const cudnnTensorFormat_t fmt = cfg.nhwc ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
    CUDNN_CHECK(cudnnCreateTensorDescriptor(&m_xDesc));
    CUDNN_CHECK(cudnnCreateTensorDescriptor(&m_yDesc));
    CUDNN_CHECK(cudnnCreateFilterDescriptor(&m_wDesc));
    CUDNN_CHECK(cudnnSetTensor4dDescriptor(m_xDesc, fmt, CUDNN_DATA_FLOAT, cfg.batch, cfg.inC, cfg.h, cfg.w));
    CUDNN_CHECK(cudnnSetTensor4dDescriptor(m_yDesc, fmt, CUDNN_DATA_FLOAT, cfg.batch, cfg.outC, oh, ow));
    // NHWC filters are KRSC (out, kh, kw, in); NCHW ones KCRS (out, in, kh, kw).
    CUDNN_CHECK(cudnnSetFilter4dDescriptor(m_wDesc, CUDNN_DATA_FLOAT, fmt, cfg.outC, cfg.inC, 3, 3));
    const cudnnMathType_t math = cfg.tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
    for (cudnnConvolutionDescriptor_t* d : {&m_fwdConv, &m_bwfConv, &m_bwdConv}) {
        CUDNN_CHECK(cudnnCreateConvolutionDescriptor(d));
        // Keras' Conv2D is a cross-correlation.
        CUDNN_CHECK(cudnnSetConvolution2dDescriptor(*d, pad, pad, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
        CUDNN_CHECK(cudnnSetConvolutionMathType(*d, math));
    }
    int n = 0, c = 0, h = 0, w = 0;
    CUDNN_CHECK(cudnnGetConvolution2dForwardOutputDim(m_fwdConv, m_xDesc, m_wDesc, &n, &c, &h, &w));
    TD_CHECK(n == cfg.batch && c == cfg.outC && h == oh && w == ow, "cuDNN output shape ", n, "x", c, "x", h, "x", w,
             " differs from the expected ", cfg.batch, "x", cfg.outC, "x", oh, "x", ow);
    m_fwdMath = m_bwfMath = m_bwdMath = math;
}

CudnnConv::~CudnnConv() {
    for (cudnnConvolutionDescriptor_t d : {m_fwdConv, m_bwfConv, m_bwdConv})
        if (d) cudnnDestroyConvolutionDescriptor(d);
    if (m_wDesc) cudnnDestroyFilterDescriptor(m_wDesc);
    if (m_yDesc) cudnnDestroyTensorDescriptor(m_yDesc);
    if (m_xDesc) cudnnDestroyTensorDescriptor(m_xDesc);
}

void CudnnConv::selectAlgorithms(cudnnHandle_t fwdHandle, cudnnHandle_t bwdHandle, const float* x, const float* w,
                                 float* y, float* dy, float* dx, float* dw, void* scratch, size_t scratchBytes) {
    // Measured choice (cudnnFind*Ex, fastest first) normally; with --deterministic the
    // heuristics' choice (cudnnGet*_v7), which does not depend on timing noise, so that every
    // run (and a resumed one) uses the same algorithms, restricted to deterministic ones.
    const bool tf32 = m_cfg.tf32, det = m_cfg.deterministic;
    const std::string shape = cat(m_cfg.batch, "x", m_cfg.inC, "x", m_cfg.h, "x", m_cfg.w, " -> ", m_cfg.outC,
                                  m_cfg.same ? " same" : " valid");
    {
        cudnnConvolutionFwdAlgoPerf_t res[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        int n = 0;
        if (!det)
            CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(fwdHandle, m_xDesc, x, m_wDesc, w, m_fwdConv, m_yDesc,
                                                               y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, res, scratch,
                                                               scratchBytes));
        const cudnnConvolutionFwdAlgoPerf_t* r = pick(res, n, tf32, det, scratchBytes);
        if (!r) {  // fall back to the heuristics
            CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(fwdHandle, m_xDesc, m_wDesc, m_fwdConv, m_yDesc,
                                                               CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &n, res));
            r = pick(res, n, tf32, det, scratchBytes);
        }
        if (!r) throw CudnnNotSupported(cat("cuDNN has no usable forward algorithm for ", shape, ": ", listResults(res, n, fwdName)));
        m_fwdAlgo = r->algo;
        m_fwdMath = tf32 ? r->mathType : CUDNN_FMA_MATH;
        m_fwdWs = r->memory;
        CUDNN_CHECK(cudnnSetConvolutionMathType(m_fwdConv, m_fwdMath));
    }
    if (m_cfg.backward) {
        cudnnConvolutionBwdFilterAlgoPerf_t res[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        int n = 0;
        if (!det)
            CUDNN_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(bwdHandle, m_xDesc, x, m_yDesc, dy, m_bwfConv,
                                                                      m_wDesc, dw,
                                                                      CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n, res,
                                                                      scratch, scratchBytes));
        const cudnnConvolutionBwdFilterAlgoPerf_t* r = pick(res, n, tf32, det, scratchBytes);
        if (!r) {
            CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(bwdHandle, m_xDesc, m_yDesc, m_bwfConv, m_wDesc,
                                                                      CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &n, res));
            r = pick(res, n, tf32, det, scratchBytes);
        }
        if (!r) throw CudnnNotSupported(cat("cuDNN has no usable backward-filter algorithm for ", shape, ": ", listResults(res, n, bwfName)));
        m_bwfAlgo = r->algo;
        m_bwfMath = tf32 ? r->mathType : CUDNN_FMA_MATH;
        m_bwfWs = r->memory;
        CUDNN_CHECK(cudnnSetConvolutionMathType(m_bwfConv, m_bwfMath));
    }
    if (m_cfg.backward && m_cfg.needDx) {
        cudnnConvolutionBwdDataAlgoPerf_t res[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        int n = 0;
        if (!det)
            CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(fwdHandle, m_wDesc, w, m_yDesc, dy, m_bwdConv,
                                                                    m_xDesc, dx, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT,
                                                                    &n, res, scratch, scratchBytes));
        const cudnnConvolutionBwdDataAlgoPerf_t* r = pick(res, n, tf32, det, scratchBytes);
        if (!r) {
            CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(fwdHandle, m_wDesc, m_yDesc, m_bwdConv, m_xDesc,
                                                                    CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &n, res));
            r = pick(res, n, tf32, det, scratchBytes);
        }
        if (!r) throw CudnnNotSupported(cat("cuDNN has no usable backward-data algorithm for ", shape, ": ", listResults(res, n, bwdName)));
        m_bwdAlgo = r->algo;
        m_bwdMath = tf32 ? r->mathType : CUDNN_FMA_MATH;
        m_fwdWs = std::max(m_fwdWs, r->memory);
        CUDNN_CHECK(cudnnSetConvolutionMathType(m_bwdConv, m_bwdMath));
    }
    // The heuristics chose without running anything: run each chosen algorithm once now, so
    // that one which cannot run fails here, during set-up inside the layout fallback, not at
    // the first training step.
    if (det) {
        const float one = 1.0f, zero = 0.0f;
        auto finish = [](cudnnHandle_t h) {
            cudaStream_t st = nullptr;
            CUDNN_CHECK(cudnnGetStream(h, &st));
            CUDA_CHECK(cudaStreamSynchronize(st));
        };
        CUDNN_CHECK(cudnnConvolutionForward(fwdHandle, &one, m_xDesc, x, m_wDesc, w, m_fwdConv, m_fwdAlgo, scratch,
                                            scratchBytes, &zero, m_yDesc, y));
        finish(fwdHandle);
        if (m_cfg.backward) {
            CUDNN_CHECK(cudnnConvolutionBackwardFilter(bwdHandle, &one, m_xDesc, x, m_yDesc, dy, m_bwfConv, m_bwfAlgo,
                                                       scratch, scratchBytes, &zero, m_wDesc, dw));
            finish(bwdHandle);
        }
        if (m_cfg.backward && m_cfg.needDx) {
            CUDNN_CHECK(cudnnConvolutionBackwardData(fwdHandle, &one, m_wDesc, w, m_yDesc, dy, m_bwdConv, m_bwdAlgo,
                                                     scratch, scratchBytes, &zero, m_xDesc, dx));
            finish(fwdHandle);
        }
    }
    m_selected = true;
}

void CudnnConv::forward(cudnnHandle_t h, const float* x, const float* w, float* y, void* ws, size_t wsBytes) const {
    const float one = 1.0f, zero = 0.0f;
    CUDNN_CHECK(cudnnConvolutionForward(h, &one, m_xDesc, x, m_wDesc, w, m_fwdConv, m_fwdAlgo, ws, wsBytes, &zero,
                                        m_yDesc, y));
}

void CudnnConv::backwardFilter(cudnnHandle_t h, const float* x, const float* dy, float* dw, void* ws,
                               size_t wsBytes) const {
    const float one = 1.0f, zero = 0.0f;
    CUDNN_CHECK(cudnnConvolutionBackwardFilter(h, &one, m_xDesc, x, m_yDesc, dy, m_bwfConv, m_bwfAlgo, ws, wsBytes,
                                               &zero, m_wDesc, dw));
}

void CudnnConv::backwardData(cudnnHandle_t h, const float* w, const float* dy, float* dx, void* ws,
                             size_t wsBytes) const {
    const float one = 1.0f, zero = 0.0f;
    CUDNN_CHECK(cudnnConvolutionBackwardData(h, &one, m_wDesc, w, m_yDesc, dy, m_bwdConv, m_bwdAlgo, ws, wsBytes, &zero,
                                             m_xDesc, dx));
}

std::string CudnnConv::algorithms() const {
    if (!m_selected) return "not selected";
    std::string s = cat("fwd ", fwdName(m_fwdAlgo), " ", mathName(m_fwdMath));
    if (m_cfg.backward) s += cat(" / bwd-filter ", bwfName(m_bwfAlgo), " ", mathName(m_bwfMath));
    if (m_cfg.backward && m_cfg.needDx) s += cat(" / bwd-data ", bwdName(m_bwdAlgo), " ", mathName(m_bwdMath));
    return s;
}

}  // namespace td::cuda
