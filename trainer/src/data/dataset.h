#pragma once
// An image classification set held as uint8 NHWC pixels (Keras' channels_last order);
// batches are converted to float in [0, 1] when they are assembled.
#include <cstdint>
#include <string>
#include <vector>

namespace td {

struct Dataset {
    int64_t n = 0;
    int h = 0, w = 0, c = 0;
    int numClasses = 10;
    std::vector<uint8_t> pixels;  // n * h * w * c
    std::vector<uint8_t> labels;  // n, each < numClasses

    size_t imageSize() const { return size_t(h) * w * c; }
    const uint8_t* image(int64_t i) const { return pixels.data() + size_t(i) * imageSize(); }
    void truncate(int64_t limit);  // keep the first `limit` images
};

struct DataSplit {
    std::string name;  // "cifar10", "cifar100", "cifar100-coarse", "idx", "synthetic"
    Dataset train, test;
};

inline void Dataset::truncate(int64_t limit) {
    if (limit <= 0 || limit >= n) return;
    n = limit;
    pixels.resize(size_t(n) * imageSize());
    labels.resize(size_t(n));
}

}  // namespace td
