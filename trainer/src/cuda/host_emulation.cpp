// The launcher of the host emulation of CUDA kernels (see cuda/host_emulation.h for how it
// maps the CUDA execution model onto host threads).
#include "cuda/host_emulation.h"

#include <barrier>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace td::cuda::emu {

namespace {

thread_local cudaError_t t_lastError = cudaSuccess;
// The __syncthreads barrier of the block this host thread is playing a thread of.
thread_local std::barrier<>* t_blockBarrier = nullptr;

std::mutex g_launchMutex;  // one grid at a time: __shared__ statics serve one block at a time
LaunchStats g_stats;

// The limits of every GPU since compute capability 3.0 (what cudaLaunchKernel checks).
bool validConfiguration(dim3 grid, dim3 block) {
    const unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    return grid.x >= 1 && grid.y >= 1 && grid.z >= 1 && grid.x <= 0x7fffffffu && grid.y <= 65535u &&
           grid.z <= 65535u && block.x >= 1 && block.y >= 1 && block.z >= 1 && block.x <= 1024u &&
           block.y <= 1024u && block.z <= 64u && threads <= 1024u;
}

// A fixed pseudo-random order of the blocks (Fisher-Yates with a 64-bit LCG).
std::vector<unsigned long long> blockOrder(unsigned long long blocks) {
    std::vector<unsigned long long> order(blocks);
    for (unsigned long long i = 0; i < blocks; ++i) order[i] = i;
    uint64_t state = 0x2545f4914f6cdd1dull ^ blocks;
    for (unsigned long long i = blocks; i > 1; --i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        std::swap(order[i - 1], order[(state >> 33) % i]);
    }
    return order;
}

}  // namespace

bool runGrid(dim3 grid, dim3 block, const std::function<void()>& body) {
    if (!validConfiguration(grid, block)) {
        t_lastError = cudaErrorInvalidConfiguration;
        return false;
    }
    const std::lock_guard<std::mutex> lock(g_launchMutex);
    const unsigned int threads = block.x * block.y * block.z;
    const unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
    const std::vector<unsigned long long> order = blockOrder(blocks);

    // The block's __syncthreads barrier loses a participant whenever a thread finishes the
    // kernel, so it is made anew for every block, by the completion step of the barrier
    // that ends the block (it runs while every thread waits there).
    std::optional<std::barrier<>> syncBarrier(std::in_place, threads);
    auto nextBlock = [&]() noexcept { syncBarrier.emplace(threads); };
    std::barrier<decltype(nextBlock)> blockEnd(threads, nextBlock);

    auto play = [&](unsigned int t) {
        threadIdx = uint3(t % block.x, (t / block.x) % block.y, t / (block.x * block.y));
        blockDim = block;
        gridDim = grid;
        for (const unsigned long long b : order) {
            blockIdx = uint3(unsigned(b % grid.x), unsigned((b / grid.x) % grid.y), unsigned(b / grid.x / grid.y));
            t_blockBarrier = &*syncBarrier;
            body();
            t_blockBarrier->arrive_and_drop();
            blockEnd.arrive_and_wait();
        }
        t_blockBarrier = nullptr;
    };
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (unsigned int t = 0; t < threads; ++t) pool.emplace_back(play, t);
    for (std::thread& th : pool) th.join();

    ++g_stats.launches;
    g_stats.blocks += blocks;
    g_stats.threads += blocks * threads;
    return true;
}

LaunchStats launchStats() {
    const std::lock_guard<std::mutex> lock(g_launchMutex);
    return g_stats;
}

}  // namespace td::cuda::emu

void __syncthreads() {
    // Outside an emulated kernel there is no block to wait for: that is a bug in the caller.
    if (!td::cuda::emu::t_blockBarrier) std::terminate();
    td::cuda::emu::t_blockBarrier->arrive_and_wait();
}

cudaError_t cudaGetLastError() {
    const cudaError_t e = td::cuda::emu::t_lastError;
    td::cuda::emu::t_lastError = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError() { return td::cuda::emu::t_lastError; }

const char* cudaGetErrorName(cudaError_t e) {
    switch (e) {
        case cudaSuccess: return "cudaSuccess";
        case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
        case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    }
    return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
    switch (e) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    }
    return "unknown error";
}
