#pragma once
// Host emulation of the CUDA the hand-written kernels use, so that the very same .cu files
// also compile as ordinary C++ (g++, no CUDA installed) and run on the CPU for tests. Only
// used when TD_CUDA_HOST_EMULATION is defined (cuda/kernel_runtime.h picks it).
//
// How a launch runs (emu::launch, through TD_LAUNCH):
//  - All of a launch runs on the launching host thread. The CUDA threads of a block run
//    on cooperative fibers (cuda/emulation_fiber.h), each on a stack of its own; the stacks
//    are allocated once and reused by every later launch. A scheduler on the launching
//    thread starts the block's threads one after the other. Why not one host thread per
//    CUDA thread (as before): with 256 threads a block cost hundreds of futex wake-ups and
//    context switches of the kernel, which made the emulation tests the slow part of the
//    test run on a 2-core machine; a fiber switch is a function call (on x86-64 without
//    a system call: ucontext's sigprocmask per switch was most of the emulation's time).
//  - Blocks run one at a time, in a shuffled order (CUDA promises no order; a kernel that
//    depends on one shows it here).
//  - threadIdx, blockIdx, blockDim, gridDim are thread_local, and the scheduler sets them
//    to the fiber's values each time before it resumes that fiber.
//  - __shared__ is `static`: a block-local variable is then one object for all threads of
//    the block, and because blocks never overlap, that one object serves each block in
//    turn, exactly like per-block shared memory (which is uninitialised on a GPU as well).
//    Launches are serialised by a mutex, so two grids never share it either.
//  - __syncthreads() switches from the fiber back to the scheduler. The scheduler runs
//    every live fiber of the block until it either waits at the barrier or returns from
//    the kernel; when all of them have, the waiting ones are released together into the
//    next round. A fiber that returns from the kernel drops out (as exited threads do on
//    the GPU), so a barrier after an early return of some threads does not hang.
//    A thread that waits keeps its fiber; threads that end without waiting hand theirs to
//    the next thread, so a kernel without barriers costs one fiber switch per block and
//    one with barriers two per thread and barrier.
//  - atomics are std::atomic_ref on the plain memory; __threadfence() is a sequentially
//    consistent fence; __ldcg() is a plain load (the fibers of a grid run one at a time).
//  - "Device memory" is host memory, streams are tags (launches run to completion before
//    TD_LAUNCH returns), and the launch configuration is validated like the CUDA runtime
//    does: a bad one sets the error that cudaGetLastError() (CUDA_CHECK_LAUNCH) reports.
//  - The rounding intrinsics (__fmul_rn...) are plain float operations; the emulated
//    kernels are compiled with -ffp-contract=off so that nothing is fused into an FMA.
// What it does not model: warps (no kernel uses warp intrinsics), memory spaces and
// coalescing, the speed of anything, and data races between threads or blocks that run
// concurrently on a GPU (here they take turns; the shuffled block order still exposes order
// dependence, and a missing __syncthreads shows: thread 0 runs to the barrier before any
// other thread has started, so it reads what they have not written yet).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

// ---- Qualifiers ----
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static

// ---- Vector types and the built-in index variables ----
struct dim3 {
    unsigned int x = 1, y = 1, z = 1;
    constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1) : x(x_), y(y_), z(z_) {}
};
using uint3 = dim3;

struct alignas(16) float4 {
    float x, y, z, w;
};

inline thread_local uint3 threadIdx;
inline thread_local uint3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local dim3 gridDim;

// ---- Runtime API (the part the kernel sources call) ----
struct CUstream_st;
using cudaStream_t = CUstream_st*;

enum cudaError_t : int {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorInvalidConfiguration = 9,
};

cudaError_t cudaGetLastError();   // returns and clears this host thread's last error
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorName(cudaError_t e);
const char* cudaGetErrorString(cudaError_t e);

// ---- Device functions ----
void __syncthreads();

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

template <typename T>
inline T __ldcg(const T* p) {
    return *p;
}

template <typename T>
inline T atomicAdd(T* address, T value) {
    static_assert(std::is_arithmetic_v<T>, "atomicAdd: arithmetic types only");
    return std::atomic_ref<T>(*address).fetch_add(value);
}

inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }

// CUDA's integer min/max overloads (fminf, fmaxf, expf, sqrtf, log come from <cmath>).
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }

namespace td::cuda::emu {

// Runs body() as every thread of every block of the grid (see the top of this file).
// Returns false (and sets the last error) when the configuration is one CUDA rejects.
bool runGrid(dim3 grid, dim3 block, const std::function<void()>& body);

// Statistics of this process, for tests and their reports.
struct LaunchStats {
    unsigned long long launches = 0, blocks = 0, threads = 0;
};
LaunchStats launchStats();

// kernel<<<grid, block, 0, stream>>>(args...). The arguments are converted to the kernel's
// parameter types once (as CUDA copies them into the parameter space); every emulated
// thread then gets its own copy of them, as a GPU thread does.
template <typename... Params, typename... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t /*stream*/, Args&&... args) {
    static_assert(sizeof...(Params) == sizeof...(Args), "kernel launched with the wrong number of arguments");
    const std::tuple<std::decay_t<Params>...> params(std::forward<Args>(args)...);
    runGrid(grid, block, [&] { std::apply(kernel, params); });
}

}  // namespace td::cuda::emu
