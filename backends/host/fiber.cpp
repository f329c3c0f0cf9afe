#include "fiber.hpp"

#include "system_error.hpp"

#include <kiln/error.hpp>

#include <sys/mman.h>
#include <unistd.h>
#include <cerrno>
#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#define KILN_HOST_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_HOST_FIBER_ASAN 1
#endif
#endif

#if defined(KILN_HOST_FIBER_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(KILN_HOST_FIBER_SWITCH)
// Saves the callee-saved registers, the SSE control word and the x87 control word on the running
// stack, stores its pointer in *save_sp, and resumes the stack load_sp saved the same way. A new
// fiber's first frame returns into the trampoline, which calls r12(r13).
extern "C" __attribute__((visibility("hidden"))) void kiln_host_fiber_switch(void** save_sp,
                                                                             void* load_sp);
extern "C" __attribute__((visibility("hidden"))) void kiln_host_fiber_trampoline();
asm(R"(
    .text
    .p2align 4
    .globl kiln_host_fiber_switch
    .hidden kiln_host_fiber_switch
    .type kiln_host_fiber_switch, @function
kiln_host_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size kiln_host_fiber_switch, .-kiln_host_fiber_switch

    .p2align 4
    .globl kiln_host_fiber_trampoline
    .hidden kiln_host_fiber_trampoline
    .type kiln_host_fiber_trampoline, @function
kiln_host_fiber_trampoline:
    movq %r13, %rdi
    callq *%r12
    ud2
    .size kiln_host_fiber_trampoline, .-kiln_host_fiber_trampoline
)");
#endif

namespace kiln::detail::host {

namespace {

// Kernels' locals live here; CUDA gives a thread 1 KiB of stack by default. Only the pages a
// fiber touches are ever backed by memory.
constexpr std::size_t stack_bytes = std::size_t{256} * 1024;

// The top of a stack that a finished fiber's last frames (its entry and the switch away) use.
constexpr std::size_t finished_frames_bytes = std::size_t{16} * 1024;

std::size_t page_bytes() {
    static const auto bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return bytes;
}

#if defined(KILN_HOST_FIBER_ASAN)
// The OS thread's own stack, as AddressSanitizer reported it when the thread first left it.
thread_local const void* thread_stack_bottom = nullptr;
thread_local std::size_t thread_stack_size = 0;
#endif

}  // namespace

FiberStack::FiberStack() {
    const std::size_t guard = page_bytes();
    void* mapping = mmap(nullptr, guard + stack_bytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mapping == MAP_FAILED) {
        throw BackendError("mmap", errno, error_text(errno));
    }
    mapping_ = static_cast<char*>(mapping);
    usable_ = mapping_ + guard;
    if (mprotect(mapping_, guard, PROT_NONE) != 0) {
        const int error = errno;
        munmap(mapping_, guard + stack_bytes);
        throw BackendError("mprotect", error, error_text(error));
    }
}

FiberStack::~FiberStack() {
    munmap(mapping_, page_bytes() + stack_bytes);
}

std::size_t FiberStack::size() noexcept {
    return stack_bytes;
}

void FiberStack::forget_frames(std::size_t bytes) const noexcept {
#if defined(KILN_HOST_FIBER_ASAN)
    ASAN_UNPOISON_MEMORY_REGION(usable_ + stack_bytes - bytes, bytes);
#else
    (void)bytes;
#endif
}

#if defined(KILN_HOST_FIBER_SWITCH)

void FiberContext::start(const FiberStack& stack, void (*entry)(void*), void* argument) {
    stack.forget_frames(finished_frames_bytes);
    // The frame kiln_host_fiber_switch pops, below a return into the trampoline that leaves the
    // stack 16-byte aligned at its call, as the ABI wants.
    auto* top = reinterpret_cast<std::uint64_t*>(stack.bottom() + stack.size()) - 2;
    std::uint32_t sse_control = 0;
    std::uint16_t x87_control = 0;
    asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(sse_control), "=m"(x87_control));
    std::uint64_t* frame = top - 8;
    frame[0] = sse_control | (std::uint64_t{x87_control} << 32U);
    frame[1] = 0;                                          // r15
    frame[2] = 0;                                          // r14
    frame[3] = reinterpret_cast<std::uint64_t>(argument);  // r13
    frame[4] = reinterpret_cast<std::uint64_t>(entry);     // r12
    frame[5] = 0;                                          // rbx
    frame[6] = 0;                                          // rbp: ends frame-pointer walks
    frame[7] = reinterpret_cast<std::uint64_t>(&kiln_host_fiber_trampoline);
    sp_ = frame;
}

#else

namespace {

// makecontext passes int arguments only: the pointers travel as halves.
void start_fiber(unsigned entry_high, unsigned entry_low, unsigned argument_high,
                 unsigned argument_low) {
    const auto join = [](unsigned high, unsigned low) {
        return (static_cast<std::uintptr_t>(high) << 32U) | low;
    };
    auto* entry = reinterpret_cast<void (*)(void*)>(join(entry_high, entry_low));
    entry(reinterpret_cast<void*>(join(argument_high, argument_low)));
}

}  // namespace

void FiberContext::start(const FiberStack& stack, void (*entry)(void*), void* argument) {
    stack.forget_frames(finished_frames_bytes);
    if (getcontext(&context_) != 0) {
        throw BackendError("getcontext", errno, error_text(errno));
    }
    context_.uc_stack.ss_sp = stack.bottom();
    context_.uc_stack.ss_size = stack.size();
    context_.uc_link = nullptr;
    const auto entry_bits = reinterpret_cast<std::uintptr_t>(entry);
    const auto argument_bits = reinterpret_cast<std::uintptr_t>(argument);
    makecontext(&context_, reinterpret_cast<void (*)()>(&start_fiber), 4,
                static_cast<unsigned>(entry_bits >> 32U), static_cast<unsigned>(entry_bits),
                static_cast<unsigned>(argument_bits >> 32U), static_cast<unsigned>(argument_bits));
}

#endif

void FiberContext::switch_to(FiberContext& from, FiberContext& to, const FiberStack* to_stack,
                             bool from_exits) {
#if defined(KILN_HOST_FIBER_ASAN)
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(from_exits ? nullptr : &fake_stack,
                                   to_stack != nullptr ? to_stack->bottom() : thread_stack_bottom,
                                   to_stack != nullptr ? FiberStack::size() : thread_stack_size);
#else
    (void)to_stack;
    (void)from_exits;
#endif
#if defined(KILN_HOST_FIBER_SWITCH)
    kiln_host_fiber_switch(&from.sp_, to.sp_);
#else
    swapcontext(&from.context_, &to.context_);
#endif
#if defined(KILN_HOST_FIBER_ASAN)
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

void FiberContext::started() {
#if defined(KILN_HOST_FIBER_ASAN)
    const void* bottom = nullptr;
    std::size_t size = 0;
    __sanitizer_finish_switch_fiber(nullptr, &bottom, &size);
    if (thread_stack_bottom == nullptr) {
        thread_stack_bottom = bottom;
        thread_stack_size = size;
    }
#endif
}

}  // namespace kiln::detail::host
