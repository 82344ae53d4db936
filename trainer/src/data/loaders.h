#pragma once
// Data set readers. Each validates magic numbers, sizes and label ranges and throws
// RuntimeError naming the file and offset of the first problem.
#include <cstdint>
#include <string>

#include "data/cifar_layouts.h"
#include "data/dataset.h"

namespace td {

// MNIST / Fashion-MNIST IDX files (gzipped or not) in dir.
DataSplit loadIdx(const std::string& dir);
// CIFAR-10 or CIFAR-100 (want), binary or python version, at path: a folder holding the
// files, the folder its archive unpacks into or the archive (cifar-10-python.tar.gz, ...),
// or an archive itself. label: "" or "fine" (CIFAR-100's 100 classes) or "coarse" (20).
// Logs (rank 0) which form it found where.
DataSplit loadCifar(const std::string& path, CifarSet want, const std::string& label);
// Whether path is a file (an archive) or a folder where loadCifar finds something.
bool cifarPresent(const std::string& path, CifarSet want);
// "\n  CIFAR-10 binary version: DIR/data_batch_1.bin[.gz], ..." one line per form.
std::string cifarLookedFor(const std::string& dir, CifarSet want);
// Seeded, learnable synthetic set: class-dependent patterns plus noise.
DataSplit makeSynthetic(int64_t nTrain, int64_t nTest, int h, int w, int c, uint64_t seed);

// Reads one IDX image/label pair (exposed for tests).
Dataset readIdxPair(const std::string& imagesPath, const std::string& labelsPath);

// "cifar" (either set) or "idx" from the files at path (format "auto"); UsageError listing
// what it looked for when neither is there.
std::string detectFormat(const std::string& path);

// Writes both sets (uint8 NHWC pixels and labels) to path, for tests (--dump-data).
void dumpDataSplit(const DataSplit& s, const std::string& path);

struct Options;
DataSplit loadData(const Options& o, uint64_t seed);

}  // namespace td
