// The GPU self-check of every GPU run (train/self_check.h), run here with the emulated GPU
// code path (emulated_gpu_backend.h) as the GPU side against the CPU backend: the very
// comparison a GPU run makes at start-up, in NHWC and NCHW, at every input shape the
// trainer accepts (28x28x1 MNIST/Fashion-MNIST, 28x28x3, 32x32x1, 32x32x3 CIFAR), once with
// oneDNN's rounding on both sides and once with the GPU side's convolutions and GEMMs
// rounded differently (EmulatedGpuStep::setRoundingNoise, as cuDNN/cuBLAS do), where
// decisions within rounding of a tie occur and must not fail the check. Linked with the healthy
// kernels it must pass; linked with the deliberately broken bias_act.cu (bias[c + 1], the
// trainer_gpu_emulated_fault build) and run with --expect-fail LAYER it must fail and name
// that layer. A candidate whose set-up throws must be reported as the "set-up" layer.
// --gpu-kernels fused: the same with the fused kernel path (its own conv2d_1 included), at the
// two shapes of the real data sets (28x28x1, 32x32x3); with the broken bias add
// (bias_add.cuh) it must name conv2d_2, the first layer whose implicit-GEMM epilogue adds
// through it (conv2d_1's own kernel adds its bias itself).
//
// Exit codes: 0 as expected, 1 not.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "dist/dist.h"
#include "dist/local_dist.h"
#include "train/self_check.h"

#include "emulated_gpu_backend.h"

using namespace td;

int main(int argc, char** argv) {
    std::string expectFail;
    bool fused = false;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--expect-fail") == 0) expectFail = argv[i + 1];
        if (std::strcmp(argv[i], "--gpu-kernels") == 0) fused = std::strcmp(argv[i + 1], "fused") == 0;
    }
    int failures = 0;
    try {
        Dist dist(&argc, &argv);
        LocalDist local(dist);
        struct Shape {
            int h, w, c, classes;
        };
        const Shape shapes[] = {{28, 28, 1, 10}, {28, 28, 3, 10}, {32, 32, 1, 10}, {32, 32, 3, 100}};
        BackendSetup run;  // the tutorial's model, as a run would set it up
        run.threads = 2;
        run.fusedKernels = fused;
        // Each shape in NHWC with the GPU's other rounding and in NCHW with oneDNN's; a
        // broken kernel (--expect-fail) must be named in both layouts.
        struct Variant {
            bool nhwc;
            double noise;
        };
        const std::vector<Variant> variants = {{true, 1e-6}, {false, 0.0}};
        for (const Shape& shape : shapes)
            for (const auto& [nhwc, noise] : variants) {
                if (!expectFail.empty() && shape.h != (nhwc ? 28 : 32)) continue;  // two are enough there
                if (fused && !((shape.h == 28 && shape.c == 1) || (shape.h == 32 && shape.c == 3))) continue;
                run.net.h = shape.h, run.net.w = shape.w, run.net.c = shape.c, run.net.classes = shape.classes;
                const SelfCheckResult r = runSelfCheck(run, local, [nhwc, noise](const BackendSetup& s) {
                    return std::make_unique<test::EmulatedGpuBackend>(s, nhwc, noise);
                });
                std::printf("self-check %dx%dx%d, emulated GPU code path (%s, %s%s) vs the CPU backend: %s\n"
                            "  cost %.2f s (%d batch(es), %d steps at batch %d)\n",
                            shape.h, shape.w, shape.c, nhwc ? "NHWC" : "NCHW",
                            noise > 0 ? "GPU-like rounding" : "oneDNN rounding", fused ? ", fused kernels" : "",
                            r.describe().c_str(), r.seconds,
                            r.attempts, kSelfCheckSteps, kSelfCheckBatch);
                const bool asExpected = expectFail.empty() ? r.ok : (!r.ok && r.layer == expectFail);
                if (!asExpected) {
                    std::printf("  FAIL: expected %s\n",
                                expectFail.empty() ? "a pass" : ("a failure naming " + expectFail).c_str());
                    ++failures;
                }
            }
        if (expectFail.empty()) {
            const SelfCheckResult r = runSelfCheck(run, local, [](const BackendSetup&) -> std::unique_ptr<Backend> {
                TD_FAIL("cuDNN call failed: cudnnCreate: CUDNN_STATUS_NOT_INITIALIZED (a set-up error made by the test)");
            });
            std::printf("self-check with a GPU backend that fails to set up: %s\n", r.describe().c_str());
            if (r.ok || r.layer != "set-up" || r.error.find("CUDNN_STATUS_NOT_INITIALIZED") == std::string::npos) {
                std::printf("  FAIL: expected a failure naming the set-up and its error\n");
                ++failures;
            }
        }
    } catch (const std::exception& e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
    std::printf(failures ? "%d self-check(s) did not turn out as expected\n" : "all self-checks as expected\n", failures);
    return failures ? 1 : 0;
}
