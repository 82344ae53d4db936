#include "cuda/context.h"

#include <exception>

namespace td::cuda {

namespace {

// cuBLAS needs a fixed workspace to be captured in a CUDA graph (no allocation then).
constexpr size_t kCublasWorkspace = 32u << 20;

}  // namespace

GpuContext::GpuContext(bool concurrent) : m_concurrent(concurrent) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&m_main, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&m_side, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&m_comm, cudaStreamNonBlocking));
    CUDNN_CHECK(cudnnCreate(&m_dnnMain));
    CUDNN_CHECK(cudnnSetStream(m_dnnMain, m_main));
    CUDNN_CHECK(cudnnCreate(&m_dnnSide));
    CUDNN_CHECK(cudnnSetStream(m_dnnSide, m_side));
    m_blasWsMain.allocate(kCublasWorkspace);
    m_blasWsSide.allocate(kCublasWorkspace);
    const struct {
        cublasHandle_t* h;
        cudaStream_t s;
        DeviceBuffer<char>* ws;
    } blas[] = {{&m_blasMain, m_main, &m_blasWsMain}, {&m_blasSide, m_side, &m_blasWsSide}};
    for (const auto& b : blas) {
        CUBLAS_CHECK(cublasCreate(b.h));
        CUBLAS_CHECK(cublasSetStream(*b.h, b.s));
        CUBLAS_CHECK(cublasSetWorkspace(*b.h, b.ws->get(), b.ws->bytes()));
        // TF32 only through the compute type of each GEMM (dense.cpp), never via the handle.
        CUBLAS_CHECK(cublasSetMathMode(*b.h, CUBLAS_DEFAULT_MATH));
    }
    m_events.resize(64);
    for (cudaEvent_t& e : m_events) CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
}

GpuContext::~GpuContext() {
    // Unwinding with other ranks possibly blocked in NCCL: synchronising or destroying
    // handles could wait on a collective that never completes. Leak; main() aborts the job.
    if (std::uncaught_exceptions() > 0) return;
    if (m_main) cudaStreamSynchronize(m_main);
    if (m_side) cudaStreamSynchronize(m_side);
    if (m_comm) cudaStreamSynchronize(m_comm);
    for (cudaEvent_t e : m_events) cudaEventDestroy(e);
    if (m_blasMain) cublasDestroy(m_blasMain);
    if (m_blasSide) cublasDestroy(m_blasSide);
    if (m_dnnMain) cudnnDestroy(m_dnnMain);
    if (m_dnnSide) cudnnDestroy(m_dnnSide);
    if (m_comm) cudaStreamDestroy(m_comm);
    if (m_side) cudaStreamDestroy(m_side);
    if (m_main) cudaStreamDestroy(m_main);
}

void GpuContext::reserveWorkspaces(size_t mainBytes, size_t sideBytes) {
    if (mainBytes > m_wsMain.bytes()) m_wsMain.allocate(mainBytes);
    if (m_concurrent && sideBytes > m_wsSide.bytes()) m_wsSide.allocate(sideBytes);
    if (!m_concurrent && sideBytes > m_wsMain.bytes()) m_wsMain.allocate(sideBytes);
}

void GpuContext::dependOn(cudaStream_t waiter, cudaStream_t signaler) {
    if (waiter == signaler) return;
    cudaEvent_t e = m_events[m_nextEvent];
    m_nextEvent = (m_nextEvent + 1) % m_events.size();
    CUDA_CHECK(cudaEventRecord(e, signaler));
    CUDA_CHECK(cudaStreamWaitEvent(waiter, e, 0));
}

}  // namespace td::cuda
