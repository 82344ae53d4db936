// The GPU self-check of every GPU run (train/self_check.h), run here with the emulated GPU
// code path (emulated_gpu_backend.h) as the GPU side against the CPU backend: the very
// comparison a GPU run makes at start-up, in NHWC and NCHW. Linked with the healthy
// kernels it must pass; linked with the deliberately broken bias_act.cu (bias[c + 1], the
// trainer_gpu_emulated_fault build) and run with --expect-fail LAYER it must fail and name
// that layer. A candidate whose set-up throws must be reported as the "set-up" layer.
//
// Exit codes: 0 as expected, 1 not.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "dist/dist.h"
#include "dist/local_dist.h"
#include "train/self_check.h"

#include "emulated_gpu_backend.h"

using namespace td;

int main(int argc, char** argv) {
    std::string expectFail;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--expect-fail") == 0) expectFail = argv[i + 1];
    int failures = 0;
    try {
        Dist dist(&argc, &argv);
        LocalDist local(dist);
        BackendSetup run;  // the tutorial's model, as a run would set it up
        run.threads = 2;
        for (const bool nhwc : {true, false}) {
            const SelfCheckResult r = runSelfCheck(run, local, [nhwc](const BackendSetup& s) {
                return std::make_unique<test::EmulatedGpuBackend>(s, nhwc);
            });
            std::printf("self-check, emulated GPU code path (%s) vs the CPU backend: %s\n  cost %.2f s (%d steps at batch %d)\n",
                        nhwc ? "NHWC" : "NCHW", r.describe().c_str(), r.seconds, kSelfCheckSteps, kSelfCheckBatch);
            const bool asExpected = expectFail.empty() ? r.ok : (!r.ok && r.layer == expectFail);
            if (!asExpected) {
                std::printf("  FAIL: expected %s\n", expectFail.empty() ? "a pass" : ("a failure naming " + expectFail).c_str());
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
