// The fiber switch of the CUDA host emulation (see cuda/emulation_fiber.h for why it is its own).
#include "cuda/emulation_fiber.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace td::cuda::emu {

#ifdef TD_EMU_FIBER_OWN_SWITCH

// td_emu_fiber_switch(void** save, void* to): pushes the callee-saved registers and the two
// floating-point control words onto the running stack, stores the stack pointer in *save,
// takes `to` as the stack pointer and pops the same from there, returning into the fiber.
// td_emu_fiber_start: where a fresh fiber's first switch returns to; it calls the entry that
// makeFiber left in r12 (the unwinder and debuggers stop here: rip is undefined above it).
asm(R"(
    .text
    .p2align 4
    .globl td_emu_fiber_switch
    .hidden td_emu_fiber_switch
    .type td_emu_fiber_switch, @function
td_emu_fiber_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    fnstcw (%rsp)
    stmxcsr 8(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    fldcw (%rsp)
    ldmxcsr 8(%rsp)
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size td_emu_fiber_switch, .-td_emu_fiber_switch

    .p2align 4
    .globl td_emu_fiber_start
    .hidden td_emu_fiber_start
    .type td_emu_fiber_start, @function
td_emu_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    call *%r12
    ud2
    .cfi_endproc
    .size td_emu_fiber_start, .-td_emu_fiber_start
)");

extern "C" void td_emu_fiber_switch(void** save, void* to);
extern "C" void td_emu_fiber_start();

void makeFiber(FiberContext& fiber, char* stack, std::size_t bytes, void (*entry)()) {
    // The frame td_emu_fiber_switch pops, from the new stack pointer up: the x87 control word
    // and MXCSR (the launching thread's), r15, r14, r13, r12 (= entry), rbx, rbp, and the
    // return address td_emu_fiber_start. The top is 16-byte aligned, so td_emu_fiber_start's
    // call enters entry with the stack aligned as the ABI wants.
    const auto top = (reinterpret_cast<std::uintptr_t>(stack) + bytes) & ~std::uintptr_t(15);
    auto* frame = reinterpret_cast<std::uint64_t*>(top) - 9;
    std::uint16_t x87 = 0;
    std::uint32_t mxcsr = 0;
    asm volatile("fnstcw %0" : "=m"(x87));
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    frame[0] = x87;
    frame[1] = mxcsr;
    frame[2] = frame[3] = frame[4] = 0;                      // r15, r14, r13
    frame[5] = reinterpret_cast<std::uint64_t>(entry);       // r12
    frame[6] = frame[7] = 0;                                 // rbx, rbp
    frame[8] = reinterpret_cast<std::uint64_t>(&td_emu_fiber_start);
    fiber.sp = frame;
}

void switchFiber(FiberContext& from, const FiberContext& to) { td_emu_fiber_switch(&from.sp, to.sp); }

#else

namespace {

[[noreturn]] void fiberFailed(const char* what) {
    std::fprintf(stderr, "CUDA host emulation: %s\n", what);
    std::abort();
}

}  // namespace

void makeFiber(FiberContext& fiber, char* stack, std::size_t bytes, void (*entry)()) {
    if (getcontext(&fiber.context) != 0) fiberFailed("getcontext failed");
    fiber.context.uc_stack.ss_sp = stack;
    fiber.context.uc_stack.ss_size = bytes;
    fiber.context.uc_link = nullptr;  // entry never returns
    makecontext(&fiber.context, entry, 0);
}

void switchFiber(FiberContext& from, const FiberContext& to) {
    if (swapcontext(&from.context, &to.context) != 0) fiberFailed("swapcontext failed");
}

#endif

}  // namespace td::cuda::emu
