#include "cuda/step_graph.h"

#include "cuda/cuda_check.h"

namespace td::cuda {

StepGraph::~StepGraph() { reset(); }

void StepGraph::reset() {
    if (m_exec) cudaGraphExecDestroy(m_exec);
    if (m_graph) cudaGraphDestroy(m_graph);
    m_exec = nullptr;
    m_graph = nullptr;
    m_nodes = m_kernels = 0;
}

bool StepGraph::capture(cudaStream_t stream, const std::vector<cudaStream_t>& others,
                        const std::function<void()>& enqueue) {
    reset();
    m_error.clear();
    auto abandon = [&](const std::string& why) {
        cudaGraph_t g = nullptr;
        cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
        if (cudaStreamIsCapturing(stream, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone) {
            cudaStreamEndCapture(stream, &g);
            if (g) cudaGraphDestroy(g);
        }
        for (cudaStream_t o : others) {  // forked streams left in the capture
            st = cudaStreamCaptureStatusNone;
            if (cudaStreamIsCapturing(o, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone) {
                g = nullptr;
                cudaStreamEndCapture(o, &g);
                if (g) cudaGraphDestroy(g);
            }
        }
        cudaGetLastError();  // capture errors are not sticky: clear them
        reset();
        m_error = why;
        return false;
    };
    cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) return abandon(cat("cudaStreamBeginCapture: ", cudaGetErrorString(e)));
    try {
        enqueue();
    } catch (const std::exception& ex) {
        return abandon(ex.what());
    }
    e = cudaStreamEndCapture(stream, &m_graph);
    if (e != cudaSuccess || !m_graph) return abandon(cat("cudaStreamEndCapture: ", cudaGetErrorString(e)));
    e = cudaGraphInstantiate(&m_exec, m_graph, 0);
    if (e != cudaSuccess) return abandon(cat("cudaGraphInstantiate: ", cudaGetErrorString(e)));
    size_t n = 0;
    if (cudaGraphGetNodes(m_graph, nullptr, &n) == cudaSuccess && n > 0) {
        std::vector<cudaGraphNode_t> nodes(n);
        if (cudaGraphGetNodes(m_graph, nodes.data(), &n) == cudaSuccess) {
            m_nodes = n;
            for (cudaGraphNode_t node : nodes) {
                cudaGraphNodeType t{};
                if (cudaGraphNodeGetType(node, &t) == cudaSuccess && t == cudaGraphNodeTypeKernel) ++m_kernels;
            }
        }
    }
    return true;
}

void StepGraph::launch(cudaStream_t stream) const { CUDA_CHECK(cudaGraphLaunch(m_exec, stream)); }

}  // namespace td::cuda
