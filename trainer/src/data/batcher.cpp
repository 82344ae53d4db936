#include "data/batcher.h"

#include <algorithm>
#include <cmath>

#include "data/shuffle.h"
#include "util/check.h"
#include "util/rng.h"

namespace td {

Batcher::Batcher(const Dataset& data, int batch, int rank, int workers, uint64_t seed, AugmentParams aug)
    : m_data(data), m_batch(batch), m_rank(rank), m_workers(workers), m_seed(seed), m_aug(aug) {
    m_perm.resize(size_t(data.n));
}

int64_t Batcher::stepsPerEpoch() const { return m_data.n / (int64_t(m_batch) * m_workers); }

void Batcher::startEpoch(int epoch) {
    m_epoch = epoch;
    // Fisher-Yates with a stream that depends on (seed, epoch) only: same on every rank.
    epochPermutation(m_data.n, m_seed, epoch, m_perm);
}

void augmentImage(const uint8_t* src, int h, int w, int c, float dy, float dx, bool flip, float* dst) {
    // Output (r, q) samples the input at (r + dy, q + dx), bilinear, edges repeated
    // (scipy's mode='nearest', which Keras' fill_mode='nearest' uses).
    const float scale = 1.0f / 255.0f;
    for (int r = 0; r < h; ++r) {
        float sy = std::clamp(r + dy, 0.0f, float(h - 1));
        int y0 = int(sy);
        int y1 = std::min(y0 + 1, h - 1);
        float fy = sy - y0;
        for (int q = 0; q < w; ++q) {
            float sx = std::clamp(q + dx, 0.0f, float(w - 1));
            int x0 = int(sx);
            int x1 = std::min(x0 + 1, w - 1);
            float fx = sx - x0;
            int outQ = flip ? (w - 1 - q) : q;
            float* o = dst + (size_t(r) * w + outQ) * c;
            const uint8_t* p00 = src + (size_t(y0) * w + x0) * c;
            const uint8_t* p01 = src + (size_t(y0) * w + x1) * c;
            const uint8_t* p10 = src + (size_t(y1) * w + x0) * c;
            const uint8_t* p11 = src + (size_t(y1) * w + x1) * c;
            for (int ch = 0; ch < c; ++ch) {
                float top = p00[ch] + fx * (float(p01[ch]) - p00[ch]);
                float bot = p10[ch] + fx * (float(p11[ch]) - p10[ch]);
                o[ch] = (top + fy * (bot - top)) * scale;
            }
        }
    }
}

void Batcher::trainBatch(int64_t step, float* x, int32_t* y, uint64_t* positions) const {
    const size_t isz = m_data.imageSize();
    const int64_t base = (step * m_workers + m_rank) * m_batch;
    TD_CHECK(base + m_batch <= m_data.n, "batch past the end of the epoch (step ", step, ")");
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m_batch; ++i) {
        const uint64_t pos = uint64_t(base + i);
        const int64_t idx = m_perm[pos];
        const uint8_t* src = m_data.image(idx);
        float* dst = x + size_t(i) * isz;
        y[i] = m_data.labels[size_t(idx)];
        positions[i] = pos;
        if (!m_aug.enabled) {
            for (size_t k = 0; k < isz; ++k) dst[k] = src[k] * (1.0f / 255.0f);
            continue;
        }
        rng::Stream s(rng::key(m_seed, rng::kAugment, uint64_t(m_epoch), pos));
        // Keras: tx = U(-hs, hs) * rows, ty = U(-ws, ws) * cols, flip with p = 0.5.
        float dy = (2.0f * s.uniform() - 1.0f) * m_aug.heightShift * m_data.h;
        float dx = (2.0f * s.uniform() - 1.0f) * m_aug.widthShift * m_data.w;
        bool flip = m_aug.horizontalFlip && s.uniform() < 0.5f;
        augmentImage(src, m_data.h, m_data.w, m_data.c, dy, dx, flip, dst);
    }
}

void evalRange(int64_t n, int rank, int workers, int64_t* begin, int64_t* end) {
    *begin = n * rank / workers;
    *end = n * (rank + 1) / workers;
}

void plainBatch(const Dataset& data, int64_t first, int count, int batch, float* x, int32_t* y) {
    const size_t isz = data.imageSize();
    for (int i = 0; i < batch; ++i) {
        float* dst = x + size_t(i) * isz;
        if (i < count) {
            const uint8_t* src = data.image(first + i);
            for (size_t k = 0; k < isz; ++k) dst[k] = src[k] * (1.0f / 255.0f);
            y[i] = data.labels[size_t(first + i)];
        } else {
            std::fill(dst, dst + isz, 0.0f);
            y[i] = 0;
        }
    }
}

}  // namespace td
