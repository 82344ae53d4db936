#include "model/params.h"

#include <cmath>
#include <cstring>
#include <new>

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
