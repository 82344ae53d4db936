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

void saveRunOutputs(const Options& o, const NetConfig& net, const RmsPropConfig& opt, Backend& backend,
                    const Dataset& test) {
    backend.pullState();
    const size_t P = backend.paramFloats();
    if (!o.noSave) {
        const std::string models = o.outDir + "/saved_models";
        makeDirs(models);
        const std::string h5 = models + "/keras_cifar10_trained_model.h5";
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
