// Does the fused GPU path still learn? A short training run on Fashion-MNIST with the
// --gpu-kernels fused step emulated on the host (emulated_gpu_backend.h: its own
// implicit-GEMM layers, head, first layer and RMSprop, no library call) beside the CPU
// backend from the same weights and batches (dropout off, so the two differ only by float
// rounding), then both sets of weights evaluated by the CPU backend on the test images.
// Passes when the GPU path's test accuracy is at least kMinAccuracy and within kMaxGap of
// the CPU's. (The full-length comparison, 0.5 points after 3 epochs, is run_gpu_checks.sh's
// Fashion-MNIST step on a GPU.)
//
// Usage: trainer_gpu_emulated_learns [FASHION_MNIST_DIR]   (default: the Debian package's)
// Exit codes: 0 passed, 1 failed (or the data set is missing: scripts/install-deps.sh installs it).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "data/loaders.h"
#include "dist/dist.h"
#include "model/params.h"
#include "train/backend.h"

#include "emulated_gpu_backend.h"

using namespace td;

namespace {

constexpr int kBatch = 8, kSteps = 30, kTestImages = 2000;
constexpr double kMinAccuracy = 0.3, kMaxGap = 0.06;

void run(Backend& b) {
    b.pushState();
    b.setIterations(0);
    b.beginTraining(11, AugmentParams{});
    b.startEpoch(0);
    for (int step = 0; step < kSteps; ++step) b.trainStep(step);
    b.pullState();
}

}  // namespace

int main(int argc, char** argv) {
    try {
        Dist dist(&argc, &argv);
        const std::string dir = argc > 1 ? argv[1] : "/usr/share/datasets/fashion-mnist";
        DataSplit d = loadIdx(dir);
        d.train.truncate(int64_t(kBatch) * kSteps);
        d.test.truncate(kTestImages);
        BackendSetup s;
        s.net.batch = kBatch, s.net.h = d.train.h, s.net.w = d.train.w, s.net.c = d.train.c;
        s.net.dropout = false;
        s.opt.lr = 1e-3;
        s.train = &d.train, s.test = &d.test, s.dist = &dist, s.fusedKernels = true;
        const std::unique_ptr<Backend> cpu = makeCpuBackend(s);
        test::EmulatedGpuBackend gpu(s, true);
        glorotInit(cpu->params(), cpu->weights(), 2046);
        const std::vector<float> w0(cpu->weights(), cpu->weights() + cpu->paramFloats());
        std::copy(w0.begin(), w0.end(), gpu.weights());
        std::setvbuf(stdout, nullptr, _IOLBF, 0);
        std::printf("%d steps at batch %d on %s (%dx%dx%d), dropout off, lr %g: CPU backend and the emulated fused GPU path\n",
                    kSteps, kBatch, dir.c_str(), d.train.h, d.train.w, d.train.c, s.opt.lr);
        const auto t0 = std::chrono::steady_clock::now();
        run(*cpu);
        const EvalResult cpuEval = cpu->evaluate();
        const auto t1 = std::chrono::steady_clock::now();
        run(gpu);
        const auto t2 = std::chrono::steady_clock::now();
        // The GPU path's weights, evaluated by the CPU backend's forward pass.
        std::copy(gpu.weights(), gpu.weights() + cpu->paramFloats(), cpu->weights());
        cpu->pushState();
        const EvalResult gpuEval = cpu->evaluate();
        std::printf("  test accuracy on %lld images: CPU %.4f (loss %.4f, %.1f s), emulated fused GPU path %.4f (loss %.4f, "
                    "%.1f s)\n",
                    (long long)cpuEval.count, cpuEval.acc, cpuEval.loss,
                    std::chrono::duration<double>(t1 - t0).count(), gpuEval.acc, gpuEval.loss,
                    std::chrono::duration<double>(t2 - t1).count());
        const bool learns = gpuEval.acc >= kMinAccuracy, close = std::fabs(gpuEval.acc - cpuEval.acc) <= kMaxGap;
        std::printf("  GPU path learns (accuracy >= %.2f): %s\n  within %.2f of the CPU's: %s\n", kMinAccuracy,
                    learns ? "ok" : "FAIL", kMaxGap, close ? "ok" : "FAIL");
        return learns && close ? 0 : 1;
    } catch (const std::exception& e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}
