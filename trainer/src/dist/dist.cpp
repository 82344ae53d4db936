#include "dist/dist.h"

#include <mpi.h>

#include <algorithm>
#include <climits>

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
