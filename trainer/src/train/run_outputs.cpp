#include "train/run_outputs.h"

#include <cstdio>
#include <vector>

#include "io/exports.h"
#include "io/metrics.h"
#include "util/check.h"
#include "util/log.h"

namespace td {

void writeRaw(const std::string& path, const float* data, size_t n) {
    makeDirs(parentDir(path));
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) TD_FAIL(path, ": cannot create");
    if (std::fwrite(data, sizeof(float), n, f) != n) {
        std::fclose(f);
        TD_FAIL(path, ": write failed");
    }
    std::fclose(f);
}

std::string modelFileName(const Options& o, const std::string& datasetName) {
    // The Batch AI recipe's name for CIFAR-10 (and the synthetic stand-in of its shape);
    // any other set names its own file: an IDX set by its folder ("fashion-mnist" ->
    // fashion_mnist_trained_model.h5), CIFAR-100 as keras_cifar100_trained_model.h5.
    std::string stem;
    if (datasetName == "cifar10" || datasetName == "synthetic") return "keras_cifar10_trained_model.h5";
    if (datasetName.rfind("cifar100", 0) == 0) {
        stem = "keras_" + datasetName;
    } else {
        std::string dir = o.dataDir;
        while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        const size_t slash = dir.find_last_of('/');
        stem = slash == std::string::npos ? dir : dir.substr(slash + 1);
        if (stem.empty() || stem == "." || stem == "..") stem = datasetName;
    }
    for (char& ch : stem) {
        const bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
        if (!word) ch = '_';
    }
    return stem + "_trained_model.h5";
}

void saveRunOutputs(const Options& o, const NetConfig& net, const RmsPropConfig& opt, Backend& backend,
                    const Dataset& test, const std::string& datasetName) {
    backend.pullState();
    const size_t P = backend.paramFloats();
    if (!o.noSave) {
        const std::string models = o.outDir + "/saved_models";
        makeDirs(models);
        const std::string h5 = models + "/" + modelFileName(o, datasetName);
        saveKerasH5(h5, net, backend.params(), backend.weights(), opt.lr, opt.decay);
        saveOnnx(models + "/model.onnx", net, backend.params(), backend.weights());
        log::info("Saved trained model at %s\n", h5.c_str());
    }
    if (!o.dumpWeights.empty()) writeRaw(o.dumpWeights, backend.weights(), P);
    if (!o.dumpTestSet.empty()) {
        std::vector<float> xs(size_t(test.n) * test.imageSize());
        for (size_t i = 0; i < xs.size(); ++i) xs[i] = test.pixels[i] * (1.0f / 255.0f);
        writeRaw(o.dumpTestSet, xs.data(), xs.size());
    }
    if (!o.dumpPredictions.empty()) {
        std::vector<float> probs = backend.predictAll();
        writeRaw(o.dumpPredictions, probs.data(), probs.size());
    }
}

}  // namespace td
