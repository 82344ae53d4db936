#include <cstring>

#include "util/check.h"
#include "data/gzfile.h"
#include "data/loaders.h"

namespace td {

namespace {

constexpr int kSide = 32;
constexpr int kPlane = kSide * kSide;
constexpr int kRecord = 1 + 3 * kPlane;  // label byte, then R, G, B planes
constexpr int kPerBatch = 10000;

// Appends one batch file; converts the planar CHW records to NHWC.
void appendBatch(Dataset& d, const std::string& path) {
    if (!fileExists(path) && !fileExists(path + ".gz"))
        throw RuntimeError(cat(path, ": missing CIFAR-10 batch file"));
    GzReader r(fileExists(path) ? path : path + ".gz");
    std::vector<uint8_t> rec(kRecord);
    size_t base = d.pixels.size();
    d.pixels.resize(base + size_t(kPerBatch) * kPlane * 3);
    for (int i = 0; i < kPerBatch; ++i) {
        uint64_t at = r.offset();
        r.read(rec.data(), kRecord, "a 3073-byte image record");
        uint8_t label = rec[0];
        if (label >= d.numClasses)
            TD_FAIL(r.path(), ": label ", int(label), " at offset ", at, " is not in [0, ", d.numClasses, ")");
        d.labels.push_back(label);
        uint8_t* dst = d.pixels.data() + base + size_t(i) * kPlane * 3;
        for (int p = 0; p < kPlane; ++p)
            for (int ch = 0; ch < 3; ++ch) dst[p * 3 + ch] = rec[1 + ch * kPlane + p];
    }
    if (!r.atEnd())
        TD_FAIL(r.path(), ": unexpected trailing data at offset ", r.offset(), " (a batch file holds ", kPerBatch,
                " records of ", kRecord, " bytes)");
    d.n += kPerBatch;
}

}  // namespace

DataSplit loadCifar10(const std::string& dir) {
    DataSplit s;
    s.name = "cifar10";
    for (Dataset* d : {&s.train, &s.test}) {
        d->h = d->w = kSide;
        d->c = 3;
    }
    for (int b = 1; b <= 5; ++b) appendBatch(s.train, cat(dir, "/data_batch_", b, ".bin"));
    appendBatch(s.test, dir + "/test_batch.bin");
    return s;
}

}  // namespace td
