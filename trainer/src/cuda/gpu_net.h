#pragma once
// The tutorial CNN on one GPU for a fixed batch size: cuDNN convolutions, cuBLAS GEMMs and
// the kernels of kernels.h, all queued on the streams of a GpuContext with no allocation
// and no host synchronisation, so a whole training step can be captured in a CUDA graph.
// Parameters and gradients live in flat device buffers with the canonical offsets
// (params.h) but device layouts (layout.h).
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda/context.h"
#include "cuda/conv.h"
#include "cuda/dense.h"
#include "cuda/kernels.h"
#include "cuda/memory.h"
#include "model/params.h"

namespace td::cuda {

// Named stretches of a profiled (eager) step, in queue order on the main stream.
enum ProfileSection : int {
    kProfAssemble, kProfConv1, kProfConv2, kProfPool1, kProfConv3, kProfConv4, kProfPool2, kProfDense1, kProfDense2,
    kProfLoss, kProfBwdDense2, kProfBwdDense1, kProfBwdPool2, kProfBwdConv4, kProfBwdConv3, kProfBwdPool1,
    kProfBwdConv2, kProfBwdConv1, kProfAllreduce, kProfRmsprop, kProfSections
};

// Records an event at each section boundary of one step and adds up the times.
class ProfileTimeline {
public:
    ProfileTimeline();
    ~ProfileTimeline();
    void mark(int section, cudaStream_t s);  // section starts here
    void end(cudaStream_t s);                // the last section ends here
    void accumulate();                       // after the step finished (synchronised)
    double milliseconds(int section) const { return m_ms[size_t(section)]; }
    bool used(int section) const { return m_used[size_t(section)]; }  // marked in some step

private:
    std::array<cudaEvent_t, kProfSections + 1> m_events{};  // [kProfSections]: the end
    std::vector<int> m_order;                                // sections marked this step
    std::array<double, kProfSections> m_ms{};
    std::array<bool, kProfSections> m_used{};
};

// Two kernel paths (--gpu-kernels): "library" runs each layer as a cuDNN/cuBLAS call followed
// by small kernels of its own (bias + ReLU, pooling, loss, ...); "fused" (fused = true) runs
// no library call: conv2d_1 as a kernel of its own with the batch assembly and bias + ReLU
// folded in (first_layer.cu; its backward: the ReLU mask with the bias and kernel
// gradients), conv2d_2..4 and dense_1 as own implicit GEMMs with bias + ReLU (+ max pooling
// + dropout) in their epilogues (layer_forward.cu) and one backward kernel per layer (data
// gradient through the previous ReLU/pooling, weight + bias gradients: layer_backward.cu),
// and the whole head (dense_1's activation, dense_2, the loss and their backward) in one
// kernel (fused.cu): 12 kernels per training step with RMSprop.
class GpuNet {
public:
    // training=false: forward only (evaluation), grads may be null.
    GpuNet(GpuContext& ctx, const NetConfig& cfg, int batch, bool training, bool nhwc, bool tf32, bool deterministic,
           const ParamTable& table, float* weights, float* grads, bool fused = false);

    // Measures the convolution algorithms (overwrites activations and gradients) and
    // reserves the context's workspaces.
    void selectAlgorithms();

    int batch() const { return m_batch; }
    Tensor4 inputShape() const { return m_x; }
    float* input() const { return m_input.get(); }
    int32_t* labels() const { return m_labels.get(); }
    const ParamTable& params() const { return m_table; }

    struct ForwardArgs {
        bool train = false;
        int valid = 0;
        DropoutArgs drop[3];      // rate 0: off
        float* probs = nullptr;   // evaluation: softmax outputs
        double* accum = nullptr;  // evaluation: += loss sum, correct
        // Fused path (firstLayerFused()): the batch to assemble inside conv2d_1's kernel,
        // instead of an input() written before forward.
        const AssembleArgs* assemble = nullptr;
    };
    void forward(const ForwardArgs& a, ProfileTimeline* prof = nullptr);
    // After a training forward. denseGradsReady runs once the dense layers' gradients (the
    // tail of the buffer from dense_1's kernel on, and the step's sums) are final on main
    // and side: the all-reduce of that part can start while the convolutions' backward runs.
    void backward(const DropoutArgs drop[3], const std::function<void()>& denseGradsReady,
                  ProfileTimeline* prof = nullptr);

    // The layers' outputs of the last forward pass, conv2d_1 to dense_1, as NHWC (or
    // (N, units)) host copies, for the self-check. The caller synchronises main first.
    std::vector<std::pair<std::string, std::vector<float>>> layerOutputs() const;

    double trainFlopsPerImage() const;
    std::string describeLayers() const;  // cuDNN algorithms per convolution
    size_t denseOffset() const { return m_table.all()[8].offset; }  // dense_1's kernel: start of the tail
    bool fused() const { return m_fused; }
    // The fused path's own conv2d_1 (first_layer.cu): training, at most 4 input channels.
    bool firstLayerFused() const { return m_firstFused; }

private:
    float* W(int i) const { return m_weights + m_table.all()[size_t(i)].offset; }
    float* G(int i) const { return m_grads + m_table.all()[size_t(i)].offset; }
    void forwardHead(const ForwardArgs& a);  // the fused path's head kernel
    void backwardFused(const DropoutArgs drop[3], const std::function<void()>& denseGradsReady, ProfileTimeline* prof);
    // The fused path's own layers: m_layers[0..2] conv2d_2..4, [3] dense_1.
    void ownForward(int i, const float* x, int w, int bias, float* y, float* p, const Tensor4& pt,
                    const DropoutArgs& drop);
    void ownBackward(int i, const float* x, int w, const float* gy, bool bias, float* gx, GradInput through,
                     const float* pre, const Tensor4& preT, float dropScale);

    GpuContext& m_ctx;
    NetConfig m_cfg;
    int m_batch;
    bool m_training;
    bool m_fused;
    bool m_firstFused;
    ParamTable m_table;
    float* m_weights;
    float* m_grads;
    std::unique_ptr<CudnnConv> m_conv[4];
    std::unique_ptr<CublasDense> m_dense[2];
    Tensor4 m_x, m_a1, m_a2, m_p1, m_a3, m_a4, m_p2, m_f1;
    int m_flat = 0;
    DeviceBuffer<float> m_input, m_act1, m_act2, m_pool1, m_act3, m_act4, m_pool2, m_fc1, m_logits;
    DeviceBuffer<int32_t> m_labels;
    DeviceBuffer<float> m_gAct1, m_gAct2, m_gPool1, m_gAct3, m_gAct4, m_gPool2, m_gFc1, m_gLogits;
    // maskBiasGrad call sites: dense_1, conv4, conv3, conv2, conv1 (ticket 5: the head kernel).
    DeviceBuffer<float> m_partials[5];
    DeviceBuffer<unsigned int> m_tickets;
    DeviceBuffer<double> m_headRows;  // the head kernel's per-sample loss and hit
    DeviceBuffer<float> m_firstPartials;  // the first layer's backward (ticket 6)
    GemmLayer m_layers[4];
    // Split-reduction scratch of the own layers: [0..3] their backward, [4] dense_1's forward.
    DeviceBuffer<float> m_gemmPartials[5];
    DeviceBuffer<unsigned int> m_gemmTickets[5];
    ReduceScratch scratch(int site) const { return {m_partials[site].get(), m_tickets.get() + site}; }
};

}  // namespace td::cuda
