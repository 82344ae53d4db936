#include "train/device_choice.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "dist/agree.h"
#include "dist/local_dist.h"
#include "train/cuda_plugin.h"
#include "train/self_check.h"
#include "util/check.h"
#include "util/log.h"

namespace td {

// Threads per rank: the CPUs this process may run on; when that is the whole machine
// (no binding by mpirun), share it among the ranks on this node.
int defaultThreads(const Dist& dist) {
    cpu_set_t set;
    CPU_ZERO(&set);
    int allowed = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0) allowed = CPU_COUNT(&set);
    int online = int(sysconf(_SC_NPROCESSORS_ONLN));
    if (allowed <= 0) allowed = online > 0 ? online : 1;
    if (allowed >= online && dist.localSize() > 1) allowed = std::max(1, allowed / dist.localSize());
    return allowed;
}

// --device: auto takes a GPU when every rank has a usable one; cuda insists on it.
bool chooseCuda(const Options& o, const Dist& dist) {
    if (o.device == "cpu") return false;
    const CudaAvailability& a = probeCuda();
    std::string mine = a.reason;
    bool usable = a.usable;
    // NCCL refuses two ranks on one GPU. (With CUDA_VISIBLE_DEVICES set, e.g. per rank by the
    // launcher, the ranks may see different GPUs: then NCCL itself reports duplicates.)
    if (usable && dist.size() > 1 && dist.localSize() > a.devices && !std::getenv("CUDA_VISIBLE_DEVICES")) {
        usable = false;
        mine = cat(dist.localSize(), " ranks on this node but ", a.devices,
                   " usable GPU(s); NCCL needs one GPU per rank");
    }
    const bool everywhere = dist.allOk(usable);
    if (everywhere) return true;
    const std::string why = usable ? std::string("another rank has no usable NVIDIA GPU") : mine;
    if (o.device == "cuda") {
        std::string where = dist.size() > 1 ? cat(" on ", dist.processorName(), " (rank ", dist.rank(), ")") : "";
        throw RuntimeError(cat("--device cuda: no usable NVIDIA GPU", where, ": ", why));
    }
    log::info("device: auto -> cpu (%s)\n", why.c_str());
    return false;
}

// The GPU self-check (train/self_check.h) on every rank's GPU before the real backend
// exists, agreed over the ranks: with --device auto all ranks fall back to the CPU, with
// --device cuda all fail together, naming the rank, the layer and the error.
bool gpuSelfCheckPasses(const Options& o, const BackendSetup& run, const Dist& dist) {
    if (o.skipGpuCheck) {
        log::info("GPU self-check skipped (--skip-gpu-check)\n");
        return true;
    }
    LocalDist local(dist);
    const SelfCheckResult r = runSelfCheck(run, local, [](const BackendSetup& s) { return makeCudaBackend(s); });
    double seconds = r.seconds;  // the mean over the ranks is logged
    dist.allreduceSum(&seconds, 1);
    const double mean = seconds / dist.size();
    const Agreement a = agree(dist, r.ok, r.describe());
    if (a.ok) {
        log::info("GPU self-check passed: %d steps at batch %d on the GPU and the CPU agree within %g (%.2f s)\n",
                  kSelfCheckSteps, kSelfCheckBatch, kSelfCheckTolerance, mean);
        if (r.attempts > 1) log::info("GPU self-check on this rank: %s\n", r.describe().c_str());
        if (mean > 2.0) log::warn(cat("the GPU self-check took ", mean, " s, more than its budget of 2 s"));
        return true;
    }
    const std::string where = dist.size() > 1 ? cat(" on rank ", a.rank, " of ", dist.size()) : std::string();
    char cost[32];
    std::snprintf(cost, sizeof cost, "%.2f s", mean);
    const std::string why = cat("GPU self-check failed", where, " (", cost, "): ", a.message);
    if (o.device == "cuda") throw AgreedError(cat("--device cuda: ", why, " (--skip-gpu-check skips the check)"));
    log::info("device: auto -> cpu (%s)\n", why.c_str());
    return false;
}

}  // namespace td
