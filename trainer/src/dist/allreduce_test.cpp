#include "dist/allreduce_test.h"

#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "io/json.h"
#include "train/cuda_plugin.h"
#include "util/check.h"
#include "util/timer.h"

namespace td {

namespace {

constexpr int warmUp = 2;

// Each rank's name once per rank, gathered on every rank (for the JSON line).
std::vector<std::string> hostsOfRanks(const Dist& dist) {
    const std::string own = dist.processorName();
    std::vector<char> mine(MPI_MAX_PROCESSOR_NAME, '\0');
    own.copy(mine.data(), mine.size() - 1);
    std::vector<char> all(size_t(dist.size()) * MPI_MAX_PROCESSOR_NAME);
    MPI_CHECK(MPI_Allgather(mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                            MPI_COMM_WORLD));
    std::vector<std::string> hosts;
    for (int r = 0; r < dist.size(); ++r) hosts.emplace_back(all.data() + size_t(r) * MPI_MAX_PROCESSOR_NAME);
    return hosts;
}

// MPI: out of place, so every iteration sums the same inputs and each can be checked.
std::pair<double, bool> mpiAllreduce(const Dist& dist, size_t count, int iterations) {
    std::vector<float> send(count, float(dist.rank() + 1)), recv(count, 0.0f);
    const float expected = float(dist.size()) * float(dist.size() + 1) / 2.0f;
    bool correct = true;
    double seconds = 0;
    for (int i = 0; i < warmUp + iterations; ++i) {
        dist.barrier();
        Timer t;
        MPI_CHECK(MPI_Allreduce(send.data(), recv.data(), int(count), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
        if (i >= warmUp) seconds += t.seconds();
        correct = correct && recv.front() == expected && recv.back() == expected && recv[count / 2] == expected;
    }
    return {seconds / iterations, correct};
}

}  // namespace

double allreduceBusBandwidth(double bytes, int ranks, double seconds) {
    if (seconds <= 0 || ranks < 1) return 0;
    return bytes / seconds * (ranks > 1 ? 2.0 * (ranks - 1) / ranks : 1.0);
}

int runAllreduceTest(const Options& o, const Dist& dist) {
    const size_t bytes = size_t(o.allreduceMb) * 1024 * 1024;
    const size_t count = bytes / sizeof(float);
    TD_CHECK(count <= size_t(INT32_MAX), "--allreduce-mb ", o.allreduceMb, " exceeds the MPI count limit");
    // NCCL between GPUs when asked for (or auto and every rank has one), else MPI.
    bool gpu = false;
    if (o.device != "cpu") {
        const CudaAvailability& cuda = probeCuda();
        if (o.device == "cuda" && !cuda.usable) TD_FAIL("--device cuda: no usable NVIDIA GPU: ", cuda.reason);
        gpu = dist.allOk(cuda.usable);
    }
    std::pair<double, bool> r;
    if (gpu) {
        const CudaAllreduceResult g = cudaAllreduceTest(dist, count, warmUp, o.allreduceIterations);
        r = {g.seconds, g.correct};
    } else {
        r = mpiAllreduce(dist, count, o.allreduceIterations);
    }
    // The slowest rank's time is the collective's.
    double worst = r.first;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    const bool correct = dist.allOk(r.second);
    const std::vector<std::string> hosts = hostsOfRanks(dist);
    if (dist.root()) {
        std::string hostList = "[";
        for (size_t i = 0; i < hosts.size(); ++i) hostList += (i ? ", \"" : "\"") + jsonEscape(hosts[i]) + "\"";
        hostList += "]";
        JsonObject j;
        j.add("kind", "allreduce")
            .add("backend", gpu ? "nccl" : "mpi")
            .add("ranks", dist.size())
            .raw("hosts", hostList)
            .add("bytes", int64_t(bytes))
            .add("iterations", o.allreduceIterations)
            .add("seconds", worst, "%.6f")
            .add("algbw_gbytes_per_s", worst > 0 ? double(bytes) / worst / 1e9 : 0.0, "%.4f")
            .add("busbw_gbytes_per_s", allreduceBusBandwidth(double(bytes), dist.size(), worst) / 1e9, "%.4f")
            .raw("correct", correct ? "true" : "false");
        std::printf("%s\n", j.str().c_str());
        std::fflush(stdout);
    }
    return correct ? 0 : 1;
}

}  // namespace td
