#include "model/params.h"

#include <cmath>
#include <cstring>
#include <new>

#include "util/check.h"
#include "util/rng.h"

namespace td {

FloatBuffer allocFloats(size_t n) {
    size_t bytes = ((n * sizeof(float) + 63) / 64) * 64;
    if (bytes == 0) bytes = 64;
    void* p = std::aligned_alloc(64, bytes);
    if (!p) throw std::bad_alloc();
    std::memset(p, 0, bytes);
    return FloatBuffer(static_cast<float*>(p));
}

size_t ParamTable::add(const std::string& layer, const std::string& name, std::vector<int64_t> shape,
                       int64_t fanIn, int64_t fanOut) {
    ParamInfo p;
    p.layer = layer;
    p.name = name;
    p.shape = std::move(shape);
    p.size = 1;
    for (int64_t d : p.shape) p.size *= size_t(d);
    p.offset = m_total;
    p.fanIn = fanIn;
    p.fanOut = fanOut;
    m_total = ((m_total + p.size + 15) / 16) * 16;
    m_params.push_back(p);
    return m_params.size() - 1;
}

size_t ParamTable::count() const {
    size_t n = 0;
    for (const auto& p : m_params) n += p.size;
    return n;
}

void pooledSize(const NetConfig& cfg, int* h, int* w) {
    int64_t ph = cfg.h, pw = cfg.w;
    ph = (ph - 2) / 2, pw = (pw - 2) / 2;  // conv same, conv valid, pool
    ph = (ph - 2) / 2, pw = (pw - 2) / 2;
    *h = int(ph);
    *w = int(pw);
}

ParamTable makeParamTable(const NetConfig& cfg) {
    int ph = 0, pw = 0;
    pooledSize(cfg, &ph, &pw);
    TD_CHECK(ph >= 1 && pw >= 1, "input images of ", cfg.h, "x", cfg.w,
             " are too small for this model (need >= 10x10)");
    const int64_t flat = int64_t(ph) * pw * 64;
    ParamTable t;
    auto conv = [&](const char* layer, int64_t in, int64_t out) {
        t.add(layer, "kernel", {3, 3, in, out}, 9 * in, 9 * out);
        t.add(layer, "bias", {out}, 0, 0);
    };
    auto dense = [&](const char* layer, int64_t in, int64_t out) {
        t.add(layer, "kernel", {in, out}, in, out);
        t.add(layer, "bias", {out}, 0, 0);
    };
    conv("conv2d_1", cfg.c, 32);
    conv("conv2d_2", 32, 32);
    conv("conv2d_3", 32, 64);
    conv("conv2d_4", 64, 64);
    dense("dense_1", flat, 512);
    dense("dense_2", 512, cfg.classes);
    return t;
}

void glorotInit(const ParamTable& t, float* w, uint64_t seed) {
    for (size_t i = 0; i < t.all().size(); ++i) {
        const ParamInfo& p = t.all()[i];
        float* dst = w + p.offset;
        if (p.name == "bias") {
            std::memset(dst, 0, p.size * sizeof(float));
            continue;
        }
        const float limit = std::sqrt(6.0f / float(p.fanIn + p.fanOut));
        rng::Stream s(rng::key(seed, rng::kInit, i));
        for (size_t k = 0; k < p.size; ++k) dst[k] = (2.0f * s.uniform() - 1.0f) * limit;
    }
}

}  // namespace td
