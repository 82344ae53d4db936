// The launcher of the host emulation of CUDA kernels (see cuda/host_emulation.h for how it
// maps the CUDA execution model onto fibers of the launching host thread).
#include "cuda/host_emulation.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "cuda/emulation_fiber.h"

namespace td::cuda::emu {

namespace {

thread_local cudaError_t t_lastError = cudaSuccess;

// A fiber's stack: the kernels keep only a few scalars there, 256 KiB leaves room for the
// C library's math functions and more. The page below it is unmapped, so an overflow is a
// crash, never a silent write into the next fiber's stack. Pages are only committed once
// touched, so even 1024 fibers cost little memory.
constexpr std::size_t kStackBytes = 256 * 1024;

struct Fiber {
    FiberContext context;
    char* stack = nullptr;
};

// The fibers, one per thread of the largest block so far: made once, reused by every launch
// (only used under g_launchMutex).
std::vector<std::unique_ptr<Fiber>> g_fibers;

// The block being run, seen by the fibers (through t_block) and by __syncthreads.
struct Block {
    FiberContext scheduler;                       // where a fiber goes when it waits or ends
    const std::function<void()>* body = nullptr;  // the kernel with its arguments
    dim3 dims;                                    // blockDim
    unsigned int threads = 0;                     // blockDim.x * y * z
    unsigned int next = 0;                        // the first thread not started yet
    unsigned int current = 0;                     // the thread running now
    unsigned int fiber = 0;                       // and the fiber it runs on
    bool waiting = false;                         // it stopped at __syncthreads
};
thread_local Block* t_block = nullptr;

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

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "CUDA host emulation: %s\n", what);
    std::abort();
}

// Makes fibers until there is one per thread of the block.
void ensureFibers(unsigned int threads) {
    const std::size_t page = (std::size_t)sysconf(_SC_PAGESIZE);
    while (g_fibers.size() < threads) {
        auto fiber = std::make_unique<Fiber>();
        void* mapping = mmap(nullptr, page + kStackBytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (mapping == MAP_FAILED) fail("cannot map a fiber stack");
        if (mprotect(mapping, page, PROT_NONE) != 0) fail("cannot protect a fiber stack's guard page");
        fiber->stack = static_cast<char*>(mapping) + page;
        g_fibers.push_back(std::move(fiber));
    }
}

void setThreadIdx(const Block& b, unsigned int t) {
    threadIdx = uint3(t % b.dims.x, (t / b.dims.x) % b.dims.y, t / (b.dims.x * b.dims.y));
}

// The start of every fiber: runs the block's threads that have not started, one after the
// other, each until it returns from the kernel. A thread that waits at __syncthreads keeps
// this fiber (the scheduler starts the next thread on a fresh one), so a kernel without
// barriers costs one fiber switch per block, not per thread; the order in which the threads
// run is the same either way. At the end it goes back to the scheduler for good, with
// Block::waiting false: the thread last run has ended (startFiber makes it afresh for reuse).
void fiberMain() {
    Block& b = *t_block;
    while (b.next < b.threads) {
        b.current = b.next++;
        setThreadIdx(b, b.current);
        (*b.body)();
    }
    switchFiber(g_fibers[b.fiber]->context, b.scheduler);
    fail("a finished fiber was resumed");
}

// Starts fiber f at fiberMain.
void startFiber(unsigned int f) {
    Fiber& fiber = *g_fibers[f];
    makeFiber(fiber.context, fiber.stack, kStackBytes, fiberMain);
}

// Switches to fiber f until a thread on it waits at __syncthreads or it has no more to run.
void resume(Block& b, unsigned int f) {
    b.fiber = f;
    b.waiting = false;
    switchFiber(b.scheduler, g_fibers[f]->context);
}

// Runs one block, in rounds from one __syncthreads to the next. The first round starts
// every thread in turn, each running until it waits at the barrier or ends; the threads
// that wait (each on its fiber) go on together in the next round, the ones that ended drop
// out, until none is left.
void runBlock(Block& b, std::vector<std::pair<unsigned int, unsigned int>>& waiting) {
    waiting.clear();
    b.next = 0;
    unsigned int fibers = 0;
    while (b.next < b.threads) {
        startFiber(fibers);
        resume(b, fibers++);
        if (b.waiting) waiting.emplace_back(b.current, b.fiber);
    }
    while (!waiting.empty()) {
        std::size_t still = 0;
        for (const auto& [t, f] : waiting) {
            b.current = t;
            setThreadIdx(b, t);
            resume(b, f);
            if (b.waiting) waiting[still++] = {t, f};
        }
        waiting.resize(still);
    }
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
    ensureFibers(threads);

    // The caller's own index variables (it is a host thread, not a CUDA thread) come back
    // after the launch, as they were.
    const uint3 callerThreadIdx = threadIdx, callerBlockIdx = blockIdx;
    const dim3 callerBlockDim = blockDim, callerGridDim = gridDim;
    Block b;
    b.body = &body;
    b.dims = block;
    b.threads = threads;
    t_block = &b;
    blockDim = block;
    gridDim = grid;
    std::vector<std::pair<unsigned int, unsigned int>> waiting;  // (thread, its fiber)
    for (const unsigned long long id : order) {
        blockIdx = uint3(unsigned(id % grid.x), unsigned((id / grid.x) % grid.y), unsigned(id / grid.x / grid.y));
        runBlock(b, waiting);
    }
    t_block = nullptr;
    threadIdx = callerThreadIdx;
    blockIdx = callerBlockIdx;
    blockDim = callerBlockDim;
    gridDim = callerGridDim;

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
    td::cuda::emu::Block* b = td::cuda::emu::t_block;
    if (!b) std::terminate();
    // The thread waits: back to the scheduler, which resumes it once every live thread of
    // the block has arrived here or ended.
    b->waiting = true;
    td::cuda::emu::switchFiber(td::cuda::emu::g_fibers[b->fiber]->context, b->scheduler);
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
