// Whole training steps of the GPU code path without a GPU (emulated_gpu_step.h: emulated
// kernels, oneDNN convolutions and GEMMs on the GPU layouts). Two steps, with augmentation,
// are compared with the CPU backend's (makeCpuBackend) from the same weights on the same
// data: this checks the device layout of the parameter buffer, the offsets of every weight
// and gradient, the order of the kernels, the RMSprop update and the step counters, and
// the loss bookkeeping (the sums riding along after the gradients, the window the host
// reads).
// Dropout is off: the CPU backend's masks follow oneDNN's blocked layouts, the GPU's
// do not (the masks themselves are compared in trainer_gpu_emulated).
//
// Tolerance, of max |cpu| per tensor: 1e-4 for the gradients of the first step (as
// trainer_gpu_layers: the convolutions sum in another order), 1e-5 for the weights and
// RMSprop accumulators after two steps and for the loss sums; image counts, correct
// predictions and step counters exactly.
//
// Exit codes: 0 all passed, 1 a check failed.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "dist/dist.h"
#include "util/rng.h"

#include "emulated_gpu_step.h"
#include "layer_compare.h"

using namespace td;
using namespace td::test;

namespace {

constexpr double kTolGrad = 1e-4, kTolState = 1e-5, kTolLoss = 1e-5;
constexpr uint64_t kSeed = 4321;
constexpr int kEpoch = 1, kSteps = 2;

RmsPropConfig optimizer() {
    RmsPropConfig c;
    // A large decay, so that a wrong iteration count shows; a large epsilon, so that the
    // comparison is well-conditioned: with Keras' 1e-7, the first updates are lr * sign(g)
    // for all but the tiniest gradients, whose ~1e-9 rounding differences between the
    // two paths then move weights by a sizeable fraction of lr.
    c.lr = 1e-3, c.decay = 1e-2, c.epsilon = 1e-3f;
    return c;
}

Dataset cifarShaped(int batch) {
    Dataset d;
    d.n = int64_t(batch) * (kSteps + 1) + 5;
    d.h = 32, d.w = 32, d.c = 3;
    d.pixels.resize(size_t(d.n) * d.imageSize());
    d.labels.resize(size_t(d.n));
    rng::Stream s(uint64_t(batch) * 7919);
    for (uint8_t& v : d.pixels) v = uint8_t(s.below(256));
    for (uint8_t& v : d.labels) v = uint8_t(s.below(10));
    return d;
}

void compareSteps(Dist& dist, int B, bool nhwc) {
    std::printf("%d training steps, batch %d, %s: emulated GPU path vs the CPU backend\n", kSteps, B,
                nhwc ? "NHWC" : "NCHW");
    const Dataset data = cifarShaped(B);
    BackendSetup s;
    s.net.batch = B, s.net.dropout = false;
    s.opt = optimizer();
    s.train = &data, s.test = &data, s.dist = &dist;
    const std::unique_ptr<Backend> cpu = makeCpuBackend(s);
    glorotInit(cpu->params(), cpu->weights(), 2018);
    EmulatedGpuStep gpu(s.net, nhwc, data);
    const std::vector<float> zeros(cpu->paramFloats(), 0.0f);
    gpu.setState(cpu->weights(), zeros.data());
    gpu.setIterations(0);
    gpu.begin(kSeed, AugmentParams{});
    gpu.startEpoch(kEpoch);
    cpu->pushState();
    cpu->setIterations(0);
    cpu->beginTraining(kSeed, AugmentParams{});
    cpu->startEpoch(kEpoch);

    const ParamTable& table = cpu->params();
    for (int step = 0; step < kSteps; ++step) {
        cpu->trainStep(step);
        gpu.step(s.opt);
        if (step > 0) continue;
        const std::vector<float> gCpu = cpu->averagedGradients(), gGpu = gpu.canonical(gpu.gradients());
        for (const ParamInfo& p : table.all())
            check("step 1: d " + p.layer + "/" + p.name,
                  std::vector<float>(gGpu.begin() + long(p.offset), gGpu.begin() + long(p.offset + p.size)),
                  std::vector<float>(gCpu.begin() + long(p.offset), gCpu.begin() + long(p.offset + p.size)), kTolGrad);
    }
    cpu->pullState();
    const std::vector<float> wGpu = gpu.canonical(gpu.weights()), aGpu = gpu.canonical(gpu.accumulators());
    const size_t P = table.totalFloats();
    for (const ParamInfo& p : table.all())
        check("after " + std::to_string(kSteps) + " steps: " + p.layer + "/" + p.name,
              std::vector<float>(wGpu.begin() + long(p.offset), wGpu.begin() + long(p.offset + p.size)),
              std::vector<float>(cpu->weights() + p.offset, cpu->weights() + p.offset + p.size), kTolState);
    check("RMSprop accumulators", aGpu, std::vector<float>(cpu->accumulators(), cpu->accumulators() + P), kTolState);
    const StepSums sums = cpu->takeSums(), local = cpu->takeLocalSums();
    const tc::StepCounters& c = gpu.counters();
    check("loss sum of the steps (window, this rank's window)", {float(c.window[0]), float(c.localWindow[0])},
          {float(sums.loss), float(local.loss)}, kTolLoss);
    expect(c.window[1] == sums.correct && c.localWindow[1] == local.correct && c.window[2] == sums.count,
           "correct predictions and image count (" + std::to_string(int(sums.count)) + ")");
    expect(c.iteration == cpu->iterations() && c.iteration == kSteps && c.stepInEpoch == kSteps &&
               c.epoch == kEpoch && c.ticket == 0,
           "step counters: iteration, step in epoch, epoch");
}

}  // namespace

int main(int argc, char** argv) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
        Dist dist(&argc, &argv);
        compareSteps(dist, 32, true);
        compareSteps(dist, 32, false);
        compareSteps(dist, 7, true);
        compareSteps(dist, 7, false);
    } catch (const std::exception& e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const tc::emu::LaunchStats s = tc::emu::launchStats();
    std::printf("emulated %llu launches, %llu blocks, %llu CUDA threads in %.1f s\n", s.launches, s.blocks, s.threads,
                seconds);
    const Tally& t = g_tally;
    std::printf(t.failures == 0 ? "all %d checks of the emulated GPU step match the CPU backend\n"
                                : "%d of %d check(s) of the emulated GPU step FAILED\n",
                t.failures ? t.failures : t.checks, t.checks);
    return t.failures == 0 ? 0 : 1;
}
