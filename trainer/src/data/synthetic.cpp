#include <algorithm>
#include <cmath>

#include "data/loaders.h"
#include "util/rng.h"

namespace td {

namespace {

// Class k is a separable cosine grid with its own (fx, fy) plus a faint colour tint;
// cosines of centred coordinates are symmetric, so horizontal flips keep the class.
constexpr int kFreq[10][2] = {{0, 1}, {1, 0}, {1, 1}, {0, 2}, {2, 0}, {2, 1}, {1, 2}, {2, 2}, {0, 3}, {3, 0}};

void fill(Dataset& d, int64_t n, int h, int w, int c, uint64_t seed) {
    d.n = n;
    d.h = h;
    d.w = w;
    d.c = c;
    d.pixels.resize(size_t(n) * h * w * c);
    d.labels.resize(size_t(n));
    const float kPi = 3.14159265358979f;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        rng::Stream s(rng::key(seed, uint64_t(i)));
        int k = int(s.below(10));
        d.labels[size_t(i)] = uint8_t(k);
        float amp = 0.6f + 0.4f * s.uniform();
        uint8_t* img = d.pixels.data() + size_t(i) * h * w * c;
        for (int y = 0; y < h; ++y) {
            float v = (y + 0.5f) / h - 0.5f;
            for (int x = 0; x < w; ++x) {
                float u = (x + 0.5f) / w - 0.5f;
                float pat = std::cos(2 * kPi * kFreq[k][0] * u) * std::cos(2 * kPi * kFreq[k][1] * v);
                for (int ch = 0; ch < c; ++ch) {
                    // Box-Muller normal noise.
                    float u1 = std::max(s.uniform(), 1e-7f), u2 = s.uniform();
                    float noise = std::sqrt(-2.0f * std::log(u1)) * std::cos(2 * kPi * u2);
                    float tint = 0.05f * float((k * 7 + ch * 3) % 5 - 2);
                    float p = 0.5f + 0.3f * amp * pat + tint + 0.2f * noise;
                    p = std::clamp(p, 0.0f, 1.0f);
                    img[(size_t(y) * w + x) * c + ch] = uint8_t(std::lround(p * 255.0f));
                }
            }
        }
    }
}

}  // namespace

DataSplit makeSynthetic(int64_t nTrain, int64_t nTest, int h, int w, int c, uint64_t seed) {
    DataSplit s;
    s.name = "synthetic";
    fill(s.train, nTrain, h, w, c, rng::key(seed, rng::kSynthTrain));
    fill(s.test, nTest, h, w, c, rng::key(seed, rng::kSynthTest));
    return s;
}

}  // namespace td
