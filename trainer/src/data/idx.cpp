#include "util/check.h"
#include "data/gzfile.h"
#include "data/loaders.h"

namespace td {

namespace {

constexpr uint32_t kImagesMagic = 0x00000803;  // unsigned byte, 3 dimensions
constexpr uint32_t kLabelsMagic = 0x00000801;  // unsigned byte, 1 dimension
constexpr int64_t kMaxImages = 100000000;

std::string findIdx(const std::string& dir, const std::string& base) {
    for (const std::string& p : {dir + "/" + base, dir + "/" + base + ".gz"})
        if (fileExists(p)) return p;
    throw RuntimeError(cat(dir, ": missing IDX file ", base, " (or ", base, ".gz)"));
}

}  // namespace

Dataset readIdxPair(const std::string& imagesPath, const std::string& labelsPath) {
    Dataset d;
    {
        GzReader r(imagesPath);
        uint32_t magic = r.readBigEndian32("magic number");
        if (magic != kImagesMagic)
            TD_FAIL(imagesPath, ": bad magic number 0x", std::hex, magic, " at offset 0 (expected 0x00000803 for ",
                    "an IDX image file)");
        uint32_t n = r.readBigEndian32("image count");
        uint32_t rows = r.readBigEndian32("row count");
        uint32_t cols = r.readBigEndian32("column count");
        if (n == 0 || n > kMaxImages || rows == 0 || cols == 0 || rows > 4096 || cols > 4096)
            TD_FAIL(imagesPath, ": implausible header at offset 4: ", n, " images of ", rows, "x", cols);
        d.n = n;
        d.h = int(rows);
        d.w = int(cols);
        d.c = 1;
        d.pixels.resize(size_t(n) * rows * cols);
        r.read(d.pixels.data(), d.pixels.size(), "pixels");
        if (!r.atEnd()) TD_FAIL(imagesPath, ": unexpected trailing data at offset ", r.offset());
    }
    {
        GzReader r(labelsPath);
        uint32_t magic = r.readBigEndian32("magic number");
        if (magic != kLabelsMagic)
            TD_FAIL(labelsPath, ": bad magic number 0x", std::hex, magic, " at offset 0 (expected 0x00000801 for ",
                    "an IDX label file)");
        uint32_t n = r.readBigEndian32("label count");
        if (int64_t(n) != d.n)
            TD_FAIL(labelsPath, ": header at offset 4 says ", n, " labels but ", imagesPath, " has ", d.n,
                    " images");
        d.labels.resize(n);
        r.read(d.labels.data(), n, "labels");
        if (!r.atEnd()) TD_FAIL(labelsPath, ": unexpected trailing data at offset ", r.offset());
        for (size_t i = 0; i < n; ++i)
            if (d.labels[i] >= d.numClasses)
                TD_FAIL(labelsPath, ": label ", int(d.labels[i]), " at offset ", 8 + i, " is not in [0, ",
                        d.numClasses, ")");
    }
    return d;
}

DataSplit loadIdx(const std::string& dir) {
    DataSplit s;
    s.name = "idx";
    s.train = readIdxPair(findIdx(dir, "train-images-idx3-ubyte"), findIdx(dir, "train-labels-idx1-ubyte"));
    s.test = readIdxPair(findIdx(dir, "t10k-images-idx3-ubyte"), findIdx(dir, "t10k-labels-idx1-ubyte"));
    if (s.train.h != s.test.h || s.train.w != s.test.w)
        TD_FAIL(dir, ": training images are ", s.train.h, "x", s.train.w, " but test images are ", s.test.h, "x",
                s.test.w);
    return s;
}

}  // namespace td
