#pragma once
// Data set readers. Each validates magic numbers, sizes and label ranges and throws
// RuntimeError naming the file and offset of the first problem.
#include <cstdint>
#include <string>

#include "data/dataset.h"

namespace td {

// MNIST / Fashion-MNIST IDX files (gzipped or not) in dir.
DataSplit loadIdx(const std::string& dir);
// CIFAR-10 binary version: data_batch_1..5.bin and test_batch.bin in dir.
DataSplit loadCifar10(const std::string& dir);
// Seeded, learnable synthetic set: class-dependent patterns plus noise.
DataSplit makeSynthetic(int64_t nTrain, int64_t nTest, int h, int w, int c, uint64_t seed);

// Reads one IDX image/label pair (exposed for tests).
Dataset readIdxPair(const std::string& imagesPath, const std::string& labelsPath);

// "cifar10" | "idx" | "synthetic" from the files present (format "auto").
std::string detectFormat(const std::string& dir);

struct Options;
DataSplit loadData(const Options& o, uint64_t seed);

}  // namespace td
