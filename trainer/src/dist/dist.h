#pragma once
// MPI with Horovod's semantics: broadcast of rank 0's state, and gradient averaging
// through one in-place MPI_Allreduce over a single flat buffer per step.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace td {

// The collectives are virtual so that the GPU backend, a plugin loaded at run time, calls
// them through the object without linking against this executable's symbols.
class Dist {
public:
    Dist(int* argc, char*** argv);  // MPI_Init
    virtual ~Dist();                // MPI_Finalize
    Dist(const Dist&) = delete;
    Dist& operator=(const Dist&) = delete;

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    int localRank() const { return m_localRank; }
    int localSize() const { return m_localSize; }  // ranks on this node
    bool root() const { return m_rank == 0; }

    virtual void broadcast(void* data, size_t bytes, int root = 0) const;
    void broadcastFloats(float* data, size_t n) const { broadcast(data, n * sizeof(float)); }
    // Sums n floats in place across ranks.
    virtual void allreduceSum(float* data, size_t n) const;
    virtual void allreduceSum(double* data, size_t n) const;
    // Rank r's n doubles land at out[r * n] on rank 0; `out` is only used there (collective).
    virtual void gatherToRoot(const double* data, size_t n, double* out) const;
    // True on every rank if `ok` is true on every rank (collective error agreement).
    virtual bool allOk(bool ok) const;
    virtual void barrier() const;
    // Point to point, for a rank that gave up waiting on a collective (dist/wait_for_peers.h):
    // tells every other rank it is waiting and listens for `graceSeconds` for the others
    // doing the same; the ranks not heard from are returned (the silent ones).
    virtual std::vector<int> silentRanks(double graceSeconds) const;
    [[noreturn]] void abort(int code) const;
    virtual std::string processorName() const;

protected:
    // A process-local view (LocalDist): no MPI_Init here, no MPI_Finalize at the end.
    Dist(int rank, int size, int localRank, int localSize)
        : m_rank(rank), m_size(size), m_localRank(localRank), m_localSize(localSize), m_ownsMpi(false) {}

private:
    int m_rank = 0, m_size = 1, m_localRank = 0, m_localSize = 1;
    bool m_ownsMpi = true;
};

}  // namespace td
