#pragma once
// The fibers of the CUDA host emulation (cuda/host_emulation.cpp): an execution context on a
// stack of its own, and the switch from one context to another on the same host thread.
//
// Why its own switch: glibc's swapcontext saves and restores the signal mask with a
// sigprocmask system call on every switch. The emulated fused kernels wait at a
// __syncthreads per tile, two switches per thread and barrier, so that system call was ~80%
// of the CPU time of the emulation tests. On x86-64 the switch here saves only what the
// calling convention makes a callee keep (rbx, rbp, r12-r15, the stack pointer, MXCSR and the
// x87 control word): a few nanoseconds, no kernel entry. Elsewhere, and under
// AddressSanitizer (which must see stack switches to keep its shadow of each stack right;
// it intercepts swapcontext), it is ucontext as before.
#include <cstddef>

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#if defined(__has_feature)
#if !__has_feature(address_sanitizer)
#define TD_EMU_FIBER_OWN_SWITCH 1
#endif
#else
#define TD_EMU_FIBER_OWN_SWITCH 1
#endif
#endif

#ifndef TD_EMU_FIBER_OWN_SWITCH
#include <ucontext.h>
#endif

namespace td::cuda::emu {

// Where a suspended fiber (or the scheduler that switched away) goes on.
struct FiberContext {
#ifdef TD_EMU_FIBER_OWN_SWITCH
    void* sp = nullptr;  // its saved registers lie on its stack, from here up
#else
    ucontext_t context;
#endif
};

// Makes `fiber` start entry() on [stack, stack + bytes) when it is next switched to. entry
// must never return: it ends by switching away for good (and is made afresh to run again).
void makeFiber(FiberContext& fiber, char* stack, std::size_t bytes, void (*entry)());

// Saves the running context into `from` and goes on in `to`; returns when something
// switches back to `from`.
void switchFiber(FiberContext& from, const FiberContext& to);

}  // namespace td::cuda::emu
