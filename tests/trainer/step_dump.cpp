// Runs two training steps of the trainer's model (oneDNN forward/backward + Keras RMSprop)
// from seeded weights on a seeded batch and writes everything a reference implementation
// needs to repeat them: test_torch_step.py replays the steps in PyTorch and compares.
// Usage: trainer_step_dump OUTDIR [H W C BATCH]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/metrics.h"
#include "model/net.h"
#include "optim/rmsprop.h"
#include "util/rng.h"

using namespace td;

static void writeBin(const std::string& path, const void* data, size_t bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(data, 1, bytes, f) != bytes) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(1);
    }
    std::fclose(f);
}

int main(int argc, char** argv) {
    if (argc != 2 && argc != 6) {
        std::fprintf(stderr, "usage: %s OUTDIR [H W C BATCH]\n", argv[0]);
        return 2;
    }
    const std::string out = argv[1];
    makeDirs(out);
    NetConfig cfg;
    if (argc == 6) {
        cfg.h = std::atoi(argv[2]), cfg.w = std::atoi(argv[3]), cfg.c = std::atoi(argv[4]);
        cfg.batch = std::atoi(argv[5]);
    } else {
        cfg.batch = 16;
    }
    cfg.dropout = false;  // PyTorch cannot reproduce our masks; dropout is checked elsewhere
    Net net(cfg);
    glorotInit(net.params(), net.weights(), 2018);
    net.syncWeights();
    const size_t P = net.paramFloats();

    const size_t isz = size_t(cfg.h) * cfg.w * cfg.c;
    std::vector<float> x(cfg.batch * isz);
    std::vector<int32_t> y(cfg.batch);
    rng::Stream s(5);
    for (float& v : x) v = s.uniform();
    for (int32_t& v : y) v = int32_t(s.below(cfg.classes));

    RmsPropConfig oc;
    oc.lr = 1e-3;
    oc.decay = 1e-2;  // large, so a wrong decay formula shows
    RmsProp opt(oc, P);
    opt.setIterations(3);

    writeBin(out + "/w0.bin", net.weights(), P * 4);
    writeBin(out + "/x.bin", x.data(), x.size() * 4);
    writeBin(out + "/y.bin", y.data(), y.size() * 4);
    std::string losses, lrs;
    for (int step = 1; step <= 2; ++step) {
        std::copy(x.begin(), x.end(), net.input());
        std::copy(y.begin(), y.end(), net.labels());
        LossResult r = net.forward(true, cfg.batch);
        net.backward();
        if (step == 1) writeBin(out + "/grad1.bin", net.grads(), P * 4);
        losses += (step > 1 ? ", " : "") + std::to_string(r.lossSum / cfg.batch);
        char lr[32];
        std::snprintf(lr, sizeof lr, "%.10g", opt.currentLr());
        lrs += (step > 1 ? ", " : "") + std::string(lr);
        opt.step(net.weights(), net.grads());
        net.syncWeights();
        writeBin(out + "/w" + std::to_string(step) + ".bin", net.weights(), P * 4);
    }
    std::string params;
    for (const ParamInfo& p : net.params().all()) {
        std::string shape;
        for (int64_t d : p.shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
        params += (params.empty() ? "" : ",\n  ") + std::string("{\"layer\": \"") + p.layer + "\", \"name\": \"" +
                  p.name + "\", \"offset\": " + std::to_string(p.offset) + ", \"shape\": [" + shape + "]}";
    }
    std::FILE* f = std::fopen((out + "/meta.json").c_str(), "w");
    std::fprintf(f,
                 "{\"batch\": %d, \"h\": %d, \"w\": %d, \"c\": %d, \"classes\": %d, \"floats\": %zu,\n"
                 " \"lr\": %.10g, \"decay\": %.10g, \"iterations\": 3, \"rho\": 0.9, \"epsilon\": 1e-7,\n"
                 " \"loss\": [%s], \"lr_used\": [%s],\n \"params\": [\n  %s]}\n",
                 cfg.batch, cfg.h, cfg.w, cfg.c, cfg.classes, P, oc.lr, oc.decay, losses.c_str(), lrs.c_str(),
                 params.c_str());
    std::fclose(f);
    std::printf("wrote %s (loss %s)\n", out.c_str(), losses.c_str());
    return 0;
}
