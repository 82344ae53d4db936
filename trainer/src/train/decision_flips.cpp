#include "train/decision_flips.h"

#include <cstdio>

#include "util/check.h"

namespace td {

namespace {

struct Shape {
    int h, w, c;  // per image, NHWC
};

// Index (0..3) of the first maximum of the 2x2 window at (ho, wo), and that maximum.
int windowArgmax(const float* x, const Shape& s, int n, int ho, int wo, int c, float* maxOut) {
    const size_t image = size_t(n) * s.h * s.w * s.c;
    auto at = [&](int r, int q) { return x[image + (size_t(2 * ho + r) * s.w + size_t(2 * wo + q)) * s.c + c]; };
    const float v[4] = {at(0, 0), at(0, 1), at(1, 0), at(1, 1)};
    int best = 0;
    for (int k = 1; k < 4; ++k)
        if (v[k] > v[best]) best = k;
    *maxOut = v[best];
    return best;
}

void note(DecisionFlips& f, const std::string& where) {
    if (f.count++ == 0) f.first = where;
}

void reluFlips(DecisionFlips& f, const std::string& layer, const std::vector<float>& g, const std::vector<float>& c) {
    for (size_t i = 0; i < c.size() && i < g.size(); ++i)
        if ((g[i] > 0.0f) != (c[i] > 0.0f)) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s ReLU at element %zu (gpu %.9g, cpu %.9g)", layer.c_str(), i, double(g[i]),
                          double(c[i]));
            note(f, buf);
        }
}

void poolFlips(DecisionFlips& f, const std::string& layer, const Shape& s, int batch, const std::vector<float>& g,
               const std::vector<float>& c) {
    if (g.size() != c.size() || c.size() != size_t(batch) * s.h * s.w * s.c) return;  // reported as a size mismatch
    for (int n = 0; n < batch; ++n)
        for (int ho = 0; ho < s.h / 2; ++ho)
            for (int wo = 0; wo < s.w / 2; ++wo)
                for (int ch = 0; ch < s.c; ++ch) {
                    float mg = 0, mc = 0;
                    const int ag = windowArgmax(g.data(), s, n, ho, wo, ch, &mg);
                    const int ac = windowArgmax(c.data(), s, n, ho, wo, ch, &mc);
                    // A window whose maximum is 0 passes no gradient on either side.
                    if (ag != ac && (mg > 0.0f || mc > 0.0f)) {
                        char buf[200];
                        std::snprintf(buf, sizeof buf,
                                      "max pooling after %s, image %d window (%d, %d) channel %d: element %d on the GPU, "
                                      "%d on the CPU (maxima %.9g and %.9g)",
                                      layer.c_str(), n, ho, wo, ch, ag, ac, double(mg), double(mc));
                        note(f, buf);
                    }
                }
}

}  // namespace

DecisionFlips decisionFlips(const NetConfig& net, int batch, const std::vector<LayerOutput>& gpu,
                            const std::vector<LayerOutput>& cpu) {
    // The model's shapes (model/net.cpp): same, valid, pool, same, valid, pool, dense.
    const Shape a2{net.h - 2, net.w - 2, 32};
    const Shape a4{a2.h / 2 - 2, a2.w / 2 - 2, 64};
    DecisionFlips f;
    for (size_t l = 0; l < cpu.size() && l < gpu.size(); ++l) {
        const std::string& layer = cpu[l].layer;
        const std::vector<float>& g = gpu[l].values;
        const std::vector<float>& c = cpu[l].values;
        if (layer.rfind("max_pooling", 0) == 0) continue;  // no decision of its own: its window's is below
        reluFlips(f, layer, g, c);
        if (layer == "conv2d_2") poolFlips(f, layer, a2, batch, g, c);
        if (layer == "conv2d_4") poolFlips(f, layer, a4, batch, g, c);
    }
    return f;
}

}  // namespace td
