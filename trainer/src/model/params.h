#pragma once
// The model's parameters in one flat buffer, in Keras order and Keras layouts
// (conv kernels HWIO, dense kernels (in, out), then biases). Broadcast, all-reduce,
// optimiser, checkpoints and exports all work on this canonical buffer; layers reorder
// to whatever layout their oneDNN kernels prefer.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace td {

// The model's input and size; the network is built for a fixed batch size.
struct NetConfig {
    int batch = 32;
    int h = 32, w = 32, c = 3;
    int classes = 10;
    bool dropout = true;
};

struct ParamInfo {
    std::string layer;          // Keras layer name, e.g. "conv2d_1"
    std::string name;           // "kernel" or "bias"
    std::vector<int64_t> shape; // Keras shape
    size_t offset = 0;          // in floats, into the flat buffer
    size_t size = 0;
    int64_t fanIn = 0, fanOut = 0;  // for glorot_uniform
};

struct AlignedFree {
    void operator()(float* p) const { std::free(p); }
};
using FloatBuffer = std::unique_ptr<float[], AlignedFree>;
FloatBuffer allocFloats(size_t n);  // 64-byte aligned, zeroed

class ParamTable {
public:
    // Adds a parameter; offsets are rounded up to 16 floats (a cache line).
    size_t add(const std::string& layer, const std::string& name, std::vector<int64_t> shape, int64_t fanIn,
               int64_t fanOut);
    const std::vector<ParamInfo>& all() const { return m_params; }
    size_t totalFloats() const { return m_total; }  // including alignment gaps
    size_t count() const;                           // real parameters

private:
    std::vector<ParamInfo> m_params;
    size_t m_total = 0;
};

// The tutorial model's parameters in Keras order: conv2d_1..4 (kernel HWIO, bias), dense_1
// (kernel (in, out), bias), dense_2. Shared by the CPU and GPU backends. Throws when the
// images are too small for the model (< 10x10).
ParamTable makeParamTable(const NetConfig& cfg);
// Spatial size of the second pooling layer's output (the dense_1 input is h*w*64).
void pooledSize(const NetConfig& cfg, int* h, int* w);

// Keras glorot_uniform kernels, zero biases, from a seeded stream.
void glorotInit(const ParamTable& t, float* w, uint64_t seed);

}  // namespace td
