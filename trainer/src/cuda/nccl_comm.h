#pragma once
// NCCL for the gradient all-reduce: rank 0 creates the unique id, MPI broadcasts it (the
// trainer's Dist), every rank joins with its GPU. Works across nodes under mpirun alike.
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>

#include "dist/dist.h"

namespace td::cuda {

class NcclComm {
public:
    explicit NcclComm(const Dist& dist);  // collective over all ranks; the GPU must be set
    ~NcclComm();
    NcclComm(const NcclComm&) = delete;
    NcclComm& operator=(const NcclComm&) = delete;

    // In place, ncclSum (the caller scales: exact for the metric counts, whatever the number
    // of ranks). Captured into CUDA graphs like any launch.
    void allreduceSum(float* data, size_t count, cudaStream_t s);
    int size() const { return m_size; }
    // Throws when NCCL reported an asynchronous error (a peer lost, a network failure):
    // polled while waiting for a stream (cuda_backend.cpp), which would otherwise hang.
    void checkAsyncError() const;

private:
    ncclComm_t m_comm = nullptr;
    int m_size = 1;
};

}  // namespace td::cuda
