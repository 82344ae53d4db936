#include "cuda/nccl_comm.h"

#include <exception>

#include "cuda/cuda_check.h"

namespace td::cuda {

NcclComm::NcclComm(const Dist& dist) : m_size(dist.size()) {
    ncclUniqueId id{};
    // Every rank takes part in the broadcast, so a failure on rank 0 is reported to all.
    int ok = 1;
    std::string error;
    if (dist.root()) {
        const ncclResult_t r = ncclGetUniqueId(&id);
        if (r != ncclSuccess) {
            ok = 0;
            error = cat("ncclGetUniqueId: ", ncclGetErrorString(r));
        }
    }
    dist.broadcast(&ok, sizeof ok);
    if (!ok) TD_FAIL("NCCL set-up failed on rank 0", error.empty() ? "" : ": ", error);
    dist.broadcast(&id, sizeof id);
    NCCL_CHECK(ncclCommInitRank(&m_comm, dist.size(), id, dist.rank()), nullptr);
}

NcclComm::~NcclComm() {
    // ncclCommDestroy is collective within a node: while an exception unwinds, the peers may
    // be blocked in an all-reduce and the destroy would wait for them forever. Leak instead;
    // main() then ends every rank through MPI_Abort.
    if (m_comm && std::uncaught_exceptions() == 0) ncclCommDestroy(m_comm);
}

void NcclComm::checkAsyncError() const {
    ncclResult_t async = ncclSuccess;
    NCCL_CHECK(ncclCommGetAsyncError(m_comm, &async), m_comm);
    if (async != ncclSuccess && async != ncclInProgress) {
        const char* last = ncclGetLastError(m_comm);
        TD_FAIL("NCCL reported an asynchronous error: ", ncclGetErrorString(async),
                (last && *last) ? cat(" (", last, ")") : std::string());
    }
}

void NcclComm::allreduceSum(float* data, size_t count, cudaStream_t s) {
    NCCL_CHECK(ncclAllReduce(data, data, count, ncclFloat, ncclSum, m_comm, s), m_comm);
}

}  // namespace td::cuda
