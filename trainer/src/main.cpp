// traindesk-trainer: parse flags, start MPI, train. Exit codes: 0 ok, 1 run-time error,
// 2 bad command line.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cli/options.h"
#include "dist/allreduce_test.h"
#include "dist/dist.h"
#include "train/gpu_memory_test.h"
#include "dist/run_guard.h"
#include "train/cuda_plugin.h"
#include "train/trainer.h"
#include "util/check.h"
#include "util/log.h"

int main(int argc, char** argv) {
    td::Options opts;
    // Parse before MPI_Init: --help and flag errors need no MPI runtime. Under mpirun
    // every rank sees the same flags, so only rank 0 (per the launcher's env) reports.
    const char* envRank = std::getenv("OMPI_COMM_WORLD_RANK");
    const bool quiet = envRank && std::string(envRank) != "0";
    try {
        opts = td::parseOptions(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const td::UsageError& e) {
        if (!quiet) std::fprintf(stderr, "traindesk-trainer: error: %s\n", e.what());
        return 2;
    }
    if (opts.help) {
        if (!quiet) std::fputs(td::usage().c_str(), stdout);
        return 0;
    }
    if (opts.version) {
        if (!quiet)
            std::printf("traindesk-trainer %s (CUDA backend %s)\n", TRAINDESK_TRAINER_VERSION,
                        td::probeCuda().built ? "built" : "not built");
        return 0;
    }
    if (opts.gpuInfo) {  // hidden: used by the GPU tests and benchmarks to decide whether to run
        const td::CudaAvailability& a = td::probeCuda();
        if (a.usable)
            std::printf("gpus: %d\n%s\n", a.devices, a.detail.c_str());
        else
            std::printf("no usable NVIDIA GPU: %s\n", a.reason.c_str());
        // Which copy of the driver and of each CUDA library this node gives the backend.
        if (!a.driver.empty()) std::printf("driver %s\n", a.driver.c_str());
        if (!a.libraries.empty()) std::printf("libraries:\n%s\n", a.libraries.c_str());
        return a.usable ? 0 : 1;
    }

    if (opts.gpuMemoryTest) return td::runGpuMemoryTest();

    std::unique_ptr<td::Dist> dist;
    try {
        dist = std::make_unique<td::Dist>(&argc, &argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "traindesk-trainer: error: %s\n", e.what());
        return 1;
    }
    td::log::setRank(dist->rank(), dist->size());
    if (opts.allreduceTest) return td::runGuarded(dist, [&] { return td::runAllreduceTest(opts, *dist); });
    return td::runGuarded(dist, [&] { return td::runTraining(opts, *dist); });
}
