#include "cli/options.h"
#include "data/gzfile.h"
#include "data/loaders.h"
#include "util/check.h"

namespace td {

std::string detectFormat(const std::string& dir) {
    if (fileExists(dir + "/data_batch_1.bin") || fileExists(dir + "/data_batch_1.bin.gz")) return "cifar10";
    if (fileExists(dir + "/train-images-idx3-ubyte") || fileExists(dir + "/train-images-idx3-ubyte.gz"))
        return "idx";
    // The CIFAR-10 archive unpacks into cifar-10-batches-bin/.
    if (fileExists(dir + "/cifar-10-batches-bin/data_batch_1.bin")) return "cifar10";
    throw UsageError(cat("--data ", dir, ": no CIFAR-10 (data_batch_1.bin) or IDX (train-images-idx3-ubyte[.gz]) ",
                         "files found; pass --format"));
}

DataSplit loadData(const Options& o, uint64_t seed) {
    std::string format = o.format;
    if (format == "auto") format = o.dataDir.empty() ? "synthetic" : detectFormat(o.dataDir);
    DataSplit s;
    if (format == "synthetic") {
        // Synthetic data depends only on the shape and sizes, not on --seed, so runs with
        // different seeds see the same data.
        (void)seed;
        s = makeSynthetic(o.synthTrain, o.synthTest, o.synthH, o.synthW, o.synthC, 20181105);
    } else if (format == "idx") {
        s = loadIdx(o.dataDir);
    } else {
        std::string dir = o.dataDir;
        if (!fileExists(dir + "/data_batch_1.bin") && !fileExists(dir + "/data_batch_1.bin.gz") &&
            fileExists(dir + "/cifar-10-batches-bin/data_batch_1.bin"))
            dir += "/cifar-10-batches-bin";
        s = loadCifar10(dir);
    }
    s.train.truncate(o.trainLimit);
    s.test.truncate(o.testLimit);
    return s;
}

}  // namespace td
