#include "dist/dist.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <thread>

#include "util/check.h"

namespace td {

Dist::Dist(int* argc, char*** argv) {
    MPI_CHECK(MPI_Init(argc, argv));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &m_rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &m_size));
    // Ranks sharing this node decide how many threads each one gets.
    MPI_Comm local;
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &local));
    MPI_CHECK(MPI_Comm_rank(local, &m_localRank));
    MPI_CHECK(MPI_Comm_size(local, &m_localSize));
    MPI_CHECK(MPI_Comm_free(&local));
}

Dist::~Dist() {
    if (!m_ownsMpi) return;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

void Dist::broadcast(void* data, size_t bytes, int root) const {
    auto* p = static_cast<char*>(data);
    while (bytes > 0) {  // MPI counts are int
        int chunk = int(std::min<size_t>(bytes, INT_MAX / 2));
        MPI_CHECK(MPI_Bcast(p, chunk, MPI_BYTE, root, MPI_COMM_WORLD));
        p += chunk;
        bytes -= size_t(chunk);
    }
}

void Dist::allreduceSum(float* data, size_t n) const {
    if (m_size == 1) return;
    TD_CHECK(n <= size_t(INT_MAX), "all-reduce of ", n, " floats exceeds the MPI count limit");
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, data, int(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD));
}

void Dist::allreduceSum(double* data, size_t n) const {
    if (m_size == 1) return;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, data, int(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
}

void Dist::gatherToRoot(const double* data, size_t n, double* out) const {
    if (m_size == 1) {
        std::copy(data, data + n, out);
        return;
    }
    TD_CHECK(n <= size_t(INT_MAX), "gather of ", n, " doubles exceeds the MPI count limit");
    MPI_CHECK(MPI_Gather(data, int(n), MPI_DOUBLE, out, int(n), MPI_DOUBLE, 0, MPI_COMM_WORLD));
}

bool Dist::allOk(bool ok) const {
    int v = ok ? 1 : 0;
    if (m_size > 1) MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    return v == 1;
}

void Dist::barrier() const { MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); }

std::vector<int> Dist::silentRanks(double graceSeconds) const {
    constexpr int kTag = 0x7d5;  // used for nothing else
    const int waiting = 1;
    std::vector<int> heard(size_t(m_size), 0);
    std::vector<MPI_Request> sends, recvs(size_t(m_size), MPI_REQUEST_NULL);
    for (int r = 0; r < m_size; ++r) {
        if (r == m_rank) continue;
        sends.emplace_back();
        MPI_CHECK(MPI_Isend(&waiting, 1, MPI_INT, r, kTag, MPI_COMM_WORLD, &sends.back()));
        MPI_CHECK(MPI_Irecv(&heard[size_t(r)], 1, MPI_INT, r, kTag, MPI_COMM_WORLD, &recvs[size_t(r)]));
    }
    const double deadline = MPI_Wtime() + graceSeconds;
    std::vector<int> silent;
    while (true) {
        silent.clear();
        for (int r = 0; r < m_size; ++r) {
            if (recvs[size_t(r)] == MPI_REQUEST_NULL) continue;
            int done = 0;
            MPI_CHECK(MPI_Test(&recvs[size_t(r)], &done, MPI_STATUS_IGNORE));
            if (!done) silent.push_back(r);
        }
        if (silent.empty() || MPI_Wtime() > deadline) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // The job ends after this: leave the silent ranks' receives cancelled, the sends to them
    // to the library.
    for (int r : silent) {
        MPI_Cancel(&recvs[size_t(r)]);
        MPI_Request_free(&recvs[size_t(r)]);
    }
    for (MPI_Request& q : sends) MPI_Request_free(&q);
    return silent;
}

void Dist::abort(int code) const {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}

std::string Dist::processorName() const {
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Get_processor_name(name, &len);
    return std::string(name, len);
}

}  // namespace td
