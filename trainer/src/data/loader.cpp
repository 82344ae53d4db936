#include "cli/options.h"
#include "data/gzfile.h"
#include "data/loaders.h"
#include "util/check.h"
#include "util/log.h"

namespace td {

namespace {

bool idxPresent(const std::string& dir) {
    return fileExists(dir + "/train-images-idx3-ubyte") || fileExists(dir + "/train-images-idx3-ubyte.gz");
}

}  // namespace

std::string detectFormat(const std::string& path) {
    if (!fileExists(path) && !dirExists(path)) throw UsageError(cat("--data ", path, ": no such file or folder"));
    if (cifarPresent(path, CifarSet::Any)) return "cifar";
    if (idxPresent(path)) return "idx";
    throw UsageError(cat("--data ", path, ": no data set found; looked for:", cifarLookedFor(path, CifarSet::Any),
                         "\n  IDX (MNIST, Fashion-MNIST): ", path, "/train-images-idx3-ubyte[.gz]",
                         "\n(an archive can also be given as --data itself; without --data the data is synthetic)"));
}

DataSplit loadData(const Options& o, uint64_t seed) {
    std::string format = o.format;
    if (format == "auto") format = o.dataDir.empty() ? "synthetic" : detectFormat(o.dataDir);
    if (!o.label.empty() && (format == "synthetic" || format == "idx"))
        throw UsageError(cat("--label ", o.label, ": only CIFAR-100 has fine and coarse labels, not the ", format,
                             " data"));
    DataSplit s;
    if (format == "synthetic") {
        // Synthetic data depends only on the shape and sizes, not on --seed, so runs with
        // different seeds see the same data.
        (void)seed;
        s = makeSynthetic(o.synthTrain, o.synthTest, o.synthH, o.synthW, o.synthC, 20181105);
    } else if (format == "idx") {
        s = loadIdx(o.dataDir);
    } else {
        const CifarSet want = format == "cifar10" ? CifarSet::Cifar10 : format == "cifar100" ? CifarSet::Cifar100
                                                                                             : CifarSet::Any;
        s = loadCifar(o.dataDir, want, o.label);
    }
    s.train.truncate(o.trainLimit);
    s.test.truncate(o.testLimit);
    if (!o.dumpData.empty() && log::rank() == 0) dumpDataSplit(s, o.dumpData);
    return s;
}

}  // namespace td
