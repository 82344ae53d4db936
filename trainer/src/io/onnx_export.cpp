#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "io/exports.h"
#include "io/protobuf.h"
#include "model/params.h"
#include "util/check.h"

namespace td {

namespace {

// ONNX enum values and field numbers (onnx.proto3).
enum : int { kFloat = 1 };
enum : int { kAttrInt = 2, kAttrInts = 7 };

struct Attr {
    std::string name;
    int64_t i = 0;
    std::vector<int64_t> ints;
    bool isList = false;
};

pb::Writer attribute(const Attr& a) {
    pb::Writer w;
    w.bytesField(1, a.name);
    if (a.isList) {
        for (int64_t v : a.ints) w.varintField(8, uint64_t(v));  // ints (unpacked is accepted)
        w.varintField(20, kAttrInts);
    } else {
        w.varintField(3, uint64_t(a.i));
        w.varintField(20, kAttrInt);
    }
    return w;
}

pb::Writer node(const std::string& op, const std::vector<std::string>& in, const std::string& out,
                const std::vector<Attr>& attrs = {}) {
    pb::Writer w;
    for (const auto& s : in) w.bytesField(1, s);
    w.bytesField(2, out);
    w.bytesField(3, out + "_node");
    w.bytesField(4, op);
    for (const Attr& a : attrs) w.messageField(5, attribute(a));
    return w;
}

pb::Writer tensor(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& data) {
    pb::Writer w;
    for (int64_t d : dims) w.varintField(1, uint64_t(d));
    w.varintField(2, kFloat);
    w.bytesField(8, name);
    w.bytesField(9, data.data(), data.size() * sizeof(float));
    return w;
}

// ValueInfoProto for a float tensor; a dim of -1 becomes the symbolic "batch".
pb::Writer valueInfo(const std::string& name, const std::vector<int64_t>& dims) {
    pb::Writer shape;
    for (int64_t d : dims) {
        pb::Writer dim;
        if (d < 0)
            dim.bytesField(2, "batch");
        else
            dim.varintField(1, uint64_t(d));
        shape.messageField(1, dim);
    }
    pb::Writer tt;
    tt.varintField(1, kFloat);
    tt.messageField(2, shape);
    pb::Writer type;
    type.messageField(1, tt);
    pb::Writer vi;
    vi.bytesField(1, name);
    vi.messageField(2, type);
    return vi;
}

Attr ints(const char* name, std::vector<int64_t> v) { return Attr{name, 0, std::move(v), true}; }
Attr one(const char* name, int64_t v) { return Attr{name, v, {}, false}; }

}  // namespace

void saveOnnx(const std::string& path, const NetConfig& c, const ParamTable& table, const float* w) {
    std::map<std::string, const ParamInfo*> byName;
    for (const ParamInfo& p : table.all()) byName[p.layer + "/" + p.name] = &p;

    pb::Writer graph;
    std::vector<pb::Writer> inits;
    // Conv kernels: Keras HWIO -> ONNX OIHW.
    auto convInit = [&](const std::string& layer) {
        const ParamInfo& k = *byName.at(layer + "/kernel");
        const int64_t KH = k.shape[0], KW = k.shape[1], I = k.shape[2], O = k.shape[3];
        std::vector<float> oihw(k.size);
        for (int64_t h = 0; h < KH; ++h)
            for (int64_t x = 0; x < KW; ++x)
                for (int64_t i = 0; i < I; ++i)
                    for (int64_t o = 0; o < O; ++o)
                        oihw[size_t(((o * I + i) * KH + h) * KW + x)] = w[k.offset + size_t(((h * KW + x) * I + i) * O + o)];
        inits.push_back(tensor(layer + "/kernel", {O, I, KH, KW}, oihw));
        const ParamInfo& b = *byName.at(layer + "/bias");
        inits.push_back(tensor(layer + "/bias", b.shape, std::vector<float>(w + b.offset, w + b.offset + b.size)));
    };
    auto denseInit = [&](const std::string& layer) {
        for (const char* n : {"/kernel", "/bias"}) {
            const ParamInfo& p = *byName.at(layer + n);
            inits.push_back(tensor(layer + n, p.shape, std::vector<float>(w + p.offset, w + p.offset + p.size)));
        }
    };
    for (const char* l : {"conv2d_1", "conv2d_2", "conv2d_3", "conv2d_4"}) convInit(l);
    denseInit("dense_1");
    denseInit("dense_2");

    std::vector<pb::Writer> nodes;
    auto conv = [&](const std::string& in, const std::string& layer, bool same) {
        const int64_t p = same ? 1 : 0;
        nodes.push_back(node("Conv", {in, layer + "/kernel", layer + "/bias"}, layer,
                             {ints("kernel_shape", {3, 3}), ints("strides", {1, 1}), ints("pads", {p, p, p, p}),
                              ints("dilations", {1, 1}), one("group", 1)}));
        nodes.push_back(node("Relu", {layer}, layer + "_relu"));
        return layer + "_relu";
    };
    auto pool = [&](const std::string& in, const std::string& name) {
        nodes.push_back(node("MaxPool", {in}, name,
                             {ints("kernel_shape", {2, 2}), ints("strides", {2, 2}), ints("pads", {0, 0, 0, 0})}));
        return name;
    };
    nodes.push_back(node("Transpose", {"input"}, "input_nchw", {ints("perm", {0, 3, 1, 2})}));
    std::string x = conv("input_nchw", "conv2d_1", true);
    x = conv(x, "conv2d_2", false);
    x = pool(x, "max_pooling2d_1");
    x = conv(x, "conv2d_3", true);
    x = conv(x, "conv2d_4", false);
    x = pool(x, "max_pooling2d_2");
    // Back to NHWC before flattening, so the dense kernel keeps Keras' row order.
    nodes.push_back(node("Transpose", {x}, "pool2_nhwc", {ints("perm", {0, 2, 3, 1})}));
    nodes.push_back(node("Flatten", {"pool2_nhwc"}, "flatten_1", {one("axis", 1)}));
    nodes.push_back(node("Gemm", {"flatten_1", "dense_1/kernel", "dense_1/bias"}, "dense_1"));
    nodes.push_back(node("Relu", {"dense_1"}, "dense_1_relu"));
    nodes.push_back(node("Gemm", {"dense_1_relu", "dense_2/kernel", "dense_2/bias"}, "dense_2"));
    nodes.push_back(node("Softmax", {"dense_2"}, "probabilities", {one("axis", 1)}));

    for (const auto& n : nodes) graph.messageField(1, n);
    graph.bytesField(2, "keras_cifar10_cnn");
    for (const auto& t : inits) graph.messageField(5, t);
    graph.bytesField(10, "TrainDesk CIFAR-10 tutorial CNN; input NHWC float images scaled to [0, 1]");
    graph.messageField(11, valueInfo("input", {-1, c.h, c.w, c.c}));
    graph.messageField(12, valueInfo("probabilities", {-1, c.classes}));

    pb::Writer opset;
    opset.bytesField(1, "");
    opset.varintField(2, 13);
    pb::Writer model;
    model.varintField(1, 7);  // IR version 7 (ONNX 1.7+)
    model.bytesField(2, "traindesk-trainer");
    model.bytesField(3, "1.0");
    model.messageField(7, graph);
    model.messageField(8, opset);

    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) TD_FAIL(tmp, ": cannot create: ", std::strerror(errno));
    const std::string& bytes = model.data();
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (std::fclose(f) != 0 || !ok) TD_FAIL(tmp, ": write failed");
    if (std::rename(tmp.c_str(), path.c_str()) != 0) TD_FAIL(tmp, ": rename to ", path, " failed");
}

}  // namespace td
