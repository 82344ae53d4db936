#include <hdf5.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "io/exports.h"
#include "io/json.h"
#include "model/params.h"
#include "util/check.h"

namespace td {

namespace {

constexpr const char* kKerasVersion = "2.1.6";  // the version the tutorial ran with

// Owns an hid_t and closes it with the right function.
class H5Handle {
public:
    H5Handle(hid_t id, herr_t (*close)(hid_t)) : m_id(id), m_close(close) {}
    ~H5Handle() {
        if (m_id >= 0) m_close(m_id);
    }
    H5Handle(const H5Handle&) = delete;
    H5Handle& operator=(const H5Handle&) = delete;
    operator hid_t() const { return m_id; }

private:
    hid_t m_id;
    herr_t (*m_close)(hid_t);
};

// numpy 'S' strings: fixed length, null padded.
hid_t fixedString(size_t len) {
    hid_t t = H5_CHECK(H5Tcopy(H5T_C_S1), "string type");
    H5_CHECK(H5Tset_size(t, std::max<size_t>(len, 1)), "string size");
    H5_CHECK(H5Tset_strpad(t, H5T_STR_NULLPAD), "string padding");
    return t;
}

void stringAttr(hid_t obj, const char* name, const std::string& value) {
    H5Handle type(fixedString(value.size()), H5Tclose);
    H5Handle space(H5_CHECK(H5Screate(H5S_SCALAR), name), H5Sclose);
    H5Handle attr(H5_CHECK(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), name), H5Aclose);
    H5_CHECK(H5Awrite(attr, type, value.data()), name);
}

void stringListAttr(hid_t obj, const char* name, const std::vector<std::string>& values) {
    size_t len = 1;
    for (const auto& v : values) len = std::max(len, v.size());
    std::vector<char> buf(values.size() * len, '\0');
    for (size_t i = 0; i < values.size(); ++i) std::memcpy(buf.data() + i * len, values[i].data(), values[i].size());
    H5Handle type(fixedString(len), H5Tclose);
    hsize_t dims[1] = {values.size()};
    H5Handle space(H5_CHECK(H5Screate_simple(1, dims, nullptr), name), H5Sclose);
    H5Handle attr(H5_CHECK(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), name), H5Aclose);
    if (!values.empty()) H5_CHECK(H5Awrite(attr, type, buf.data()), name);
}

void floatDataset(hid_t group, const std::string& name, const std::vector<int64_t>& shape, const float* data) {
    std::vector<hsize_t> dims(shape.begin(), shape.end());
    H5Handle space(H5_CHECK(H5Screate_simple(int(dims.size()), dims.data(), nullptr), name), H5Sclose);
    H5Handle ds(H5_CHECK(H5Dcreate2(group, name.c_str(), H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         name),
                H5Dclose);
    H5_CHECK(H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), name);
}

struct LayerSpec {
    std::string cls, name;
    std::string config;  // JSON body (without name/trainable)
    bool hasWeights;
};

std::string initializers() {
    return R"("kernel_initializer": {"class_name": "VarianceScaling", "config": {"scale": 1.0, "mode": "fan_avg", )"
           R"("distribution": "uniform", "seed": null}}, "bias_initializer": {"class_name": "Zeros", "config": {}}, )"
           R"("kernel_regularizer": null, "bias_regularizer": null, "activity_regularizer": null, )"
           R"("kernel_constraint": null, "bias_constraint": null)";
}

std::vector<LayerSpec> layers(const NetConfig& c) {
    auto conv = [&](const char* name, int filters, const char* padding, bool first) {
        std::string cfg;
        if (first) cfg += cat("\"batch_input_shape\": [null, ", c.h, ", ", c.w, ", ", c.c, "], \"dtype\": \"float32\", ");
        cfg += cat("\"filters\": ", filters, ", \"kernel_size\": [3, 3], \"strides\": [1, 1], \"padding\": \"", padding,
                   "\", \"data_format\": \"channels_last\", \"dilation_rate\": [1, 1], \"activation\": \"linear\", ",
                   "\"use_bias\": true, ", initializers());
        return LayerSpec{"Conv2D", name, cfg, true};
    };
    auto act = [](const char* name, const char* fn) {
        return LayerSpec{"Activation", name, cat("\"activation\": \"", fn, "\""), false};
    };
    auto pool = [](const char* name) {
        return LayerSpec{"MaxPooling2D", name,
                         "\"pool_size\": [2, 2], \"padding\": \"valid\", \"strides\": [2, 2], \"data_format\": "
                         "\"channels_last\"",
                         false};
    };
    auto drop = [](const char* name, const char* rate) {
        return LayerSpec{"Dropout", name, cat("\"rate\": ", rate, ", \"noise_shape\": null, \"seed\": null"), false};
    };
    auto dense = [](const char* name, int units) {
        return LayerSpec{"Dense", name,
                         cat("\"units\": ", units, ", \"activation\": \"linear\", \"use_bias\": true, ", initializers()),
                         true};
    };
    return {conv("conv2d_1", 32, "same", true),
            act("activation_1", "relu"),
            conv("conv2d_2", 32, "valid", false),
            act("activation_2", "relu"),
            pool("max_pooling2d_1"),
            drop("dropout_1", "0.25"),
            conv("conv2d_3", 64, "same", false),
            act("activation_3", "relu"),
            conv("conv2d_4", 64, "valid", false),
            act("activation_4", "relu"),
            pool("max_pooling2d_2"),
            drop("dropout_2", "0.25"),
            LayerSpec{"Flatten", "flatten_1", "\"data_format\": \"channels_last\"", false},
            dense("dense_1", 512),
            act("activation_5", "relu"),
            drop("dropout_3", "0.5"),
            dense("dense_2", c.classes),
            act("activation_6", "softmax")};
}

}  // namespace

std::string kerasModelConfig(const NetConfig& cfg) {
    std::string out = "{\"class_name\": \"Sequential\", \"config\": [";
    bool first = true;
    for (const LayerSpec& l : layers(cfg)) {
        if (!first) out += ", ";
        first = false;
        out += cat("{\"class_name\": \"", l.cls, "\", \"config\": {\"name\": \"", l.name, "\", \"trainable\": true, ",
                   l.config, "}}");
    }
    return out + "]}";
}

void saveKerasH5(const std::string& path, const NetConfig& cfg, const ParamTable& table, const float* w, double lr,
                 double decay) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // our own messages instead of HDF5's stack dumps
    const std::string tmp = path + ".tmp";
    {
        H5Handle file(H5_CHECK(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), tmp), H5Fclose);
        stringAttr(file, "keras_version", kKerasVersion);
        stringAttr(file, "backend", "tensorflow");
        stringAttr(file, "model_config", kerasModelConfig(cfg));
        JsonObject opt;
        opt.add("lr", lr).add("rho", 0.9).add("decay", decay).add("epsilon", 1e-7);
        stringAttr(file, "training_config",
                   "{\"optimizer_config\": {\"class_name\": \"RMSprop\", \"config\": " + opt.str() +
                       "}, \"loss\": \"categorical_crossentropy\", \"metrics\": [\"accuracy\"], "
                       "\"sample_weight_mode\": null, \"loss_weights\": null}");
        H5Handle mw(H5_CHECK(H5Gcreate2(file, "model_weights", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), tmp), H5Gclose);
        std::vector<std::string> names;
        for (const LayerSpec& l : layers(cfg)) names.push_back(l.name);
        stringListAttr(mw, "layer_names", names);
        stringAttr(mw, "backend", "tensorflow");
        stringAttr(mw, "keras_version", kKerasVersion);
        const auto& params = table.all();
        for (const LayerSpec& l : layers(cfg)) {
            H5Handle g(H5_CHECK(H5Gcreate2(mw, l.name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), l.name),
                       H5Gclose);
            std::vector<std::string> weightNames;
            if (l.hasWeights) {
                H5Handle inner(
                    H5_CHECK(H5Gcreate2(g, l.name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), l.name),
                    H5Gclose);
                for (const ParamInfo& p : params) {
                    if (p.layer != l.name) continue;
                    const std::string ds = p.name + ":0";
                    weightNames.push_back(l.name + "/" + ds);
                    floatDataset(inner, ds, p.shape, w + p.offset);
                }
            }
            stringListAttr(g, "weight_names", weightNames);
        }
        H5_CHECK(H5Fflush(file, H5F_SCOPE_GLOBAL), tmp);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) TD_FAIL(tmp, ": rename to ", path, " failed");
}

}  // namespace td
