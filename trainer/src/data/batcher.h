#pragma once
// Turns a Dataset into float batches: per-epoch seeded shuffle, a distinct shard per
// rank, Keras ImageDataGenerator-style augmentation. Every random choice is keyed by
// (seed, epoch, position in the epoch), so 1 rank x 2B and 2 ranks x B see the same
// images with the same transforms, and a resumed run repeats an uninterrupted one.
#include <cstdint>
#include <vector>

#include "data/dataset.h"

namespace td {

struct AugmentParams {
    bool enabled = true;
    float widthShift = 0.1f;   // fraction of the width
    float heightShift = 0.1f;  // fraction of the height
    bool horizontalFlip = true;
};

class Batcher {
public:
    Batcher(const Dataset& data, int batch, int rank, int workers, uint64_t seed, AugmentParams aug);

    // Global steps per epoch: every rank runs the same number; the remainder is dropped.
    int64_t stepsPerEpoch() const;
    void startEpoch(int epoch);  // epoch is 0-based
    // Fills x (batch*h*w*c floats in [0,1], NHWC) and y (batch labels) for this rank's
    // share of global step `step`; positions[i] is the image's position in the epoch.
    void trainBatch(int64_t step, float* x, int32_t* y, uint64_t* positions) const;

private:
    const Dataset& m_data;
    int m_batch, m_rank, m_workers;
    uint64_t m_seed;
    AugmentParams m_aug;
    int m_epoch = 0;
    std::vector<int64_t> m_perm;
};

// Test-set shard of this rank: images [begin, end) are split evenly over ranks.
void evalRange(int64_t n, int rank, int workers, int64_t* begin, int64_t* end);
// Copies images [first, first+count) scaled to [0,1]; pads the rest of the batch with zeros.
void plainBatch(const Dataset& data, int64_t first, int count, int batch, float* x, int32_t* y);

// Exposed for tests: one augmented image.
void augmentImage(const uint8_t* src, int h, int w, int c, float dy, float dx, bool flip, float* dst);

}  // namespace td
