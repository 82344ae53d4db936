// A stand-in for the GPU backend's agreement and abort logic (cuda_backend.cpp), run under
// 2-4 real MPI ranks with the CPU backend doing the training: the same decisions
// (dist/gpu_decisions.h), the same wait with a time-out (dist/wait_for_peers.h) and the
// same end of a run (dist/run_guard.h) as the GPU backend and main(), with one rank made
// to fail where a GPU could. The CPU backend's MPI all-reduce stands in for NCCL's.
//
// Usage: mpirun -np N trainer_gpu_agreement SCENARIO RANK
//   ok                 nothing fails: every rank trains NHWC with its graph
//   setup-unsupported  RANK's cuDNN cannot do NHWC: every rank trains NCHW
//   setup-memory       RANK runs out of GPU memory at set-up: every rank ends (exit 1), rank 0
//                      reports RANK's error
//   capture            RANK cannot capture its step: every rank trains without a graph
//   step               RANK fails in its second step while the others wait in the
//                      all-reduce: every rank ends through MPI_Abort with RANK's message
//   silent             RANK stops before its second step's all-reduce: the others give up
//                      after $TRAINDESK_PEER_TIMEOUT and name RANK as the silent one
// Every rank prints "rank R: layout L, graph G, S steps" when it trains to the end.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "dist/dist.h"
#include "dist/gpu_decisions.h"
#include "dist/run_guard.h"
#include "dist/wait_for_peers.h"
#include "train/backend.h"
#include "util/check.h"
#include "util/log.h"
#include "util/rng.h"

using namespace td;

namespace {

constexpr int kSteps = 3;

class StandInGpuBackend {
public:
    StandInGpuBackend(const BackendSetup& s, const std::string& scenario, int failRank)
        : m_dist(*s.dist), m_scenario(scenario), m_fails(s.dist->rank() == failRank), m_cpu(makeCpuBackend(s)) {
        // CudaBackend's constructor: try the requested layout, agree, maybe fall back.
        auto attempt = [&](bool nhwc) -> std::pair<SetupOutcome, std::string> {
            if (m_fails && m_scenario == "setup-unsupported" && nhwc)
                return {SetupOutcome::NotSupported,
                        "cuDNN call failed: cudnnConvolutionForward: CUDNN_STATUS_NOT_SUPPORTED_LAYOUT (stand-in)"};
            if (m_fails && m_scenario == "setup-memory")
                return {SetupOutcome::Failed, "cudaMalloc of 1073741824 bytes (1024 MiB) failed on GPU 0 (stand-in GPU, "
                                              "0.3 of 80.0 GiB free): cudaErrorMemoryAllocation: out of memory"};
            return {SetupOutcome::Ok, {}};
        };
        auto [outcome, error] = attempt(true);
        if (!agreeOnSetup(m_dist, outcome, error, "NHWC")) {
            m_nhwc = false;
            std::tie(outcome, error) = attempt(false);
            agreeOnSetup(m_dist, outcome, error, "NCHW");
        }
    }
    Backend& cpu() { return *m_cpu; }

    // CudaBackend::trainStep, with the wait of sync() before the all-reduce.
    void trainStep(int64_t step) {
        if (m_stepsRun == 1) {  // the step is captured after the first, eager one
            const bool captured = !(m_fails && m_scenario == "capture");
            m_graph = agreeOnGraph(m_dist, captured, captured ? "" : "cudaStreamEndCapture: "
                                                                     "cudaErrorStreamCaptureInvalidated (stand-in)");
            if (m_fails && m_scenario == "step")
                TD_FAIL("CUDA call failed: cudaGraphLaunch(m_exec, stream): cudaErrorIllegalAddress (stand-in)");
            if (m_fails && m_scenario == "silent") {
                std::fprintf(stderr, "rank %d: going silent\n", m_dist.rank());
                sleep(120);  // lost: never reaches the all-reduce
                std::_Exit(3);
            }
        }
        // The GPU stream holding the all-reduce: polled, with the time-out naming the silent.
        MPI_Request arrived;
        MPI_CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &arrived));
        waitForPeers(m_dist, [&] {
            int done = 0;
            MPI_CHECK(MPI_Test(&arrived, &done, MPI_STATUS_IGNORE));
            return done != 0;
        }, peerTimeoutSeconds(), "waiting for the GPU step (NCCL all-reduce)");
        m_cpu->trainStep(step);
        ++m_stepsRun;
    }
    bool nhwc() const { return m_nhwc; }
    bool graph() const { return m_graph; }

private:
    const Dist& m_dist;
    std::string m_scenario;
    bool m_fails;
    std::unique_ptr<Backend> m_cpu;
    bool m_nhwc = true, m_graph = false;
    int64_t m_stepsRun = 0;
};

Dataset smallSet(int n) {
    Dataset d;
    d.n = n, d.h = 16, d.w = 16, d.c = 3;
    d.pixels.resize(size_t(n) * d.imageSize());
    d.labels.resize(size_t(n));
    rng::Stream s(99);
    for (uint8_t& v : d.pixels) v = uint8_t(s.below(256));
    for (uint8_t& v : d.labels) v = uint8_t(s.below(10));
    return d;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: trainer_gpu_agreement SCENARIO RANK\n");
        return 2;
    }
    const std::string scenario = argv[1];
    const int failRank = std::atoi(argv[2]);
    std::unique_ptr<Dist> dist = std::make_unique<Dist>(&argc, &argv);
    log::setRank(dist->rank(), dist->size());
    return runGuarded(dist, [&] {
        const Dataset data = smallSet(64 * dist->size());
        BackendSetup s;
        s.net.batch = 8, s.net.h = 16, s.net.w = 16;
        s.train = &data, s.test = &data, s.dist = dist.get();
        StandInGpuBackend gpu(s, scenario, failRank);
        Backend& b = gpu.cpu();
        glorotInit(b.params(), b.weights(), 7);
        dist->broadcastFloats(b.weights(), b.paramFloats());
        b.pushState();
        b.beginTraining(7, AugmentParams{});
        b.startEpoch(0);
        for (int step = 0; step < kSteps; ++step) gpu.trainStep(step);
        const StepSums sums = b.takeSums();
        std::printf("rank %d: layout %s, graph %s, %d steps, %.0f images\n", dist->rank(), gpu.nhwc() ? "NHWC" : "NCHW",
                    gpu.graph() ? "yes" : "no", kSteps, sums.count);
        std::fflush(stdout);
        dist->barrier();
        return 0;
    });
}
