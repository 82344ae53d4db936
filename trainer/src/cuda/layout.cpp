#include "cuda/layout.h"

#include <cstring>

#include "util/check.h"

namespace td::cuda {

namespace {

// Index in the device slot of canonical element k of parameter p (k < p.size).
template <typename F>
void forEachElement(const ParamTable& table, const NetConfig& cfg, bool nhwc, F&& f) {
    int ph = 0, pw = 0;
    pooledSize(cfg, &ph, &pw);
    for (size_t pi = 0; pi < table.all().size(); ++pi) {
        const ParamInfo& p = table.all()[pi];
        if (p.name == "kernel" && p.shape.size() == 4) {  // conv: HWIO -> OHWI or OIHW
            const int64_t KH = p.shape[0], KW = p.shape[1], I = p.shape[2], O = p.shape[3];
            for (int64_t y = 0; y < KH; ++y)
                for (int64_t x = 0; x < KW; ++x)
                    for (int64_t i = 0; i < I; ++i)
                        for (int64_t o = 0; o < O; ++o) {
                            const size_t canon = size_t(((y * KW + x) * I + i) * O + o);
                            const size_t dev = nhwc ? size_t(((o * KH + y) * KW + x) * I + i)
                                                    : size_t(((o * I + i) * KH + y) * KW + x);
                            f(p.offset + canon, p.offset + dev);
                        }
        } else if (p.layer == "dense_1" && p.name == "kernel" && !nhwc) {  // rows (h, w, c) -> (c, h, w)
            const int64_t C = 64, units = p.shape[1];
            TD_CHECK(p.shape[0] == int64_t(ph) * pw * C, "dense_1 kernel shape mismatch");
            for (int64_t h = 0; h < ph; ++h)
                for (int64_t w = 0; w < pw; ++w)
                    for (int64_t c = 0; c < C; ++c) {
                        const size_t canonRow = size_t((h * pw + w) * C + c);
                        const size_t devRow = size_t((c * ph + h) * pw + w);
                        for (int64_t u = 0; u < units; ++u)
                            f(p.offset + canonRow * size_t(units) + size_t(u), p.offset + devRow * size_t(units) + size_t(u));
                    }
        } else {
            for (size_t k = 0; k < p.size; ++k) f(p.offset + k, p.offset + k);
        }
    }
}

}  // namespace

void canonicalToDevice(const ParamTable& table, const NetConfig& cfg, bool nhwc, const float* canon, float* dev) {
    std::memset(dev, 0, table.totalFloats() * sizeof(float));
    forEachElement(table, cfg, nhwc, [&](size_t c, size_t d) { dev[d] = canon[c]; });
}

void deviceToCanonical(const ParamTable& table, const NetConfig& cfg, bool nhwc, const float* dev, float* canon) {
    std::memset(canon, 0, table.totalFloats() * sizeof(float));
    forEachElement(table, cfg, nhwc, [&](size_t c, size_t d) { canon[c] = dev[d]; });
}

std::vector<float> activationToNhwc(const float* dev, const Tensor4& t) {
    std::vector<float> out(size_t(t.size()));
    size_t i = 0;
    for (int n = 0; n < t.n; ++n)
        for (int y = 0; y < t.h; ++y)
            for (int x = 0; x < t.w; ++x)
                for (int c = 0; c < t.c; ++c) out[i++] = dev[n * t.sn + c * t.sc + y * t.sh + x * t.sw];
    return out;
}

}  // namespace td::cuda
