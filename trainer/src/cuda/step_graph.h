#pragma once
// A training step captured once in a CUDA graph and replayed: one launch per step instead
// of ~40, and no CPU work between the kernels. Capture records without executing, so a
// failed capture leaves nothing half-done: the caller then runs the step eagerly.
#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

namespace td::cuda {

class StepGraph {
public:
    StepGraph() = default;
    ~StepGraph();
    StepGraph(const StepGraph&) = delete;
    StepGraph& operator=(const StepGraph&) = delete;

    // Captures what enqueue() queues on `stream` and on the streams it forks from it (they
    // must be joined back). `others` are those streams, for clean-up after a failure.
    // Returns false, with error() saying why, when the work cannot be captured.
    bool capture(cudaStream_t stream, const std::vector<cudaStream_t>& others, const std::function<void()>& enqueue);
    void launch(cudaStream_t stream) const;
    void clear() { reset(); }  // drop a captured graph (another rank could not capture)
    bool ready() const { return m_exec != nullptr; }
    const std::string& error() const { return m_error; }
    size_t nodes() const { return m_nodes; }
    size_t kernels() const { return m_kernels; }

private:
    void reset();
    cudaGraph_t m_graph = nullptr;
    cudaGraphExec_t m_exec = nullptr;
    std::string m_error;
    size_t m_nodes = 0, m_kernels = 0;
};

}  // namespace td::cuda
