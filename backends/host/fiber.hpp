// Fibers: stacks of their own on one OS thread, switched between explicitly. The host backend runs
// a CUDA-dialect block whose threads wait for each other (barriers, warp functions) as one fiber
// per thread (block_scheduler.hpp). On x86-64 a switch saves and loads the callee-saved registers
// only, a few nanoseconds; elsewhere it is swapcontext, which also asks the kernel for the signal
// mask. Under AddressSanitizer every switch is announced to it, so that it knows which stack runs.
#pragma once

#include <cstddef>
#include <memory>

#if defined(__x86_64__)
#define KILN_HOST_FIBER_SWITCH 1
#else
#include <ucontext.h>
#endif

namespace kiln::detail::host {

// A fiber's stack: mapped on first use, with a guard page below it so that an overflow faults
// instead of writing over another stack.
class FiberStack {
public:
    FiberStack();
    ~FiberStack();
    FiberStack(const FiberStack&) = delete;
    FiberStack& operator=(const FiberStack&) = delete;
    FiberStack(FiberStack&&) = delete;
    FiberStack& operator=(FiberStack&&) = delete;

    [[nodiscard]] char* bottom() const noexcept { return usable_; }
    [[nodiscard]] static std::size_t size() noexcept;
    // Clears AddressSanitizer's marks left on the top `bytes` of the stack by frames that never
    // returned: the last frames of a finished fiber, or all of one that never finished.
    void forget_frames(std::size_t bytes = size()) const noexcept;

private:
    char* mapping_ = nullptr;
    char* usable_ = nullptr;
};

// Where a suspended fiber (or the thread that runs fibers) resumes.
class FiberContext {
public:
    // A context that starts entry(argument) on `stack` when first switched to. `entry` must never
    // return: it ends by switching away for good.
    void start(const FiberStack& stack, void (*entry)(void*), void* argument);

    // Saves the running context in `from` and resumes `to`, whose stack is `to_stack` (null: the
    // OS thread's own). `from_exits`: the running fiber will never be resumed.
    static void switch_to(FiberContext& from, FiberContext& to, const FiberStack* to_stack,
                          bool from_exits = false);

    // In a fiber's entry, first of all: completes the switch that started it.
    static void started();

private:
#if defined(KILN_HOST_FIBER_SWITCH)
    void* sp_ = nullptr;
#else
    ucontext_t context_{};
#endif
};

}  // namespace kiln::detail::host
