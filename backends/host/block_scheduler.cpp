#include "block_scheduler.hpp"

#include "fiber.hpp"
#include "warp_functions.hpp"

#include <kiln/error.hpp>

#include <array>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace kiln::detail::host {

namespace {

enum class ThreadState : unsigned char { ready, barrier, warp, returned };

struct FiberThread {
    FiberContext context;
    ThreadState state = ThreadState::ready;
    int predicate = 0;
    WarpRequest request;
    unsigned long long result = 0;
};

// One block being run: its threads, and the scheduler's own context on the OS thread's stack.
struct Block {
    void (*thread)(void*, unsigned) = nullptr;
    void* context = nullptr;
    const unsigned* index = nullptr;
    const unsigned* dim = nullptr;
    unsigned count = 0;
    unsigned current = 0;
    std::vector<FiberThread>* threads = nullptr;
    FiberContext scheduler;
    std::exception_ptr failure;
};

// The OS thread's block in progress, and its fibers' stacks and states, kept for its next block.
thread_local Block* running = nullptr;
thread_local std::vector<std::unique_ptr<FiberStack>> stacks;
thread_local std::vector<FiberThread> fiber_threads;

std::string thread_name(const Block& block, unsigned t) {
    const unsigned x = t % block.dim[0];
    const unsigned y = t / block.dim[0] % block.dim[1];
    const unsigned z = t / block.dim[0] / block.dim[1];
    return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

// "thread (3, 0, 0)" or "threads (3, 0, 0) and 12 more" of those in `state`.
std::string threads_in(const Block& block, ThreadState state) {
    unsigned first = block.count;
    unsigned n = 0;
    for (unsigned t = 0; t < block.count; ++t) {
        if ((*block.threads)[t].state == state) {
            first = n == 0 ? t : first;
            ++n;
        }
    }
    if (n == 0) {
        return {};
    }
    std::string text = (n == 1 ? "thread " : "threads ") + thread_name(block, first);
    return n == 1 ? text : text + " and " + std::to_string(n - 1) + " more";
}

std::string hex(unsigned value) {
    std::array<char, 11> text{};
    (void)std::snprintf(text.data(), text.size(), "0x%08x", value);
    return text.data();
}

[[noreturn]] void fail_block(const Block& block, const std::string& what) {
    throw Error("kiln: block (" + std::to_string(block.index[0]) + ", " +
                std::to_string(block.index[1]) + ", " + std::to_string(block.index[2]) +
                "): " + what + "; on a GPU this block would hang");
}

void fiber_main(void* argument) {
    FiberContext::started();
    Block& block = *running;
    auto& self = *static_cast<FiberThread*>(argument);
    try {
        block.thread(block.context, static_cast<unsigned>(&self - block.threads->data()));
    } catch (...) {
        block.failure = std::current_exception();
    }
    self.state = ThreadState::returned;
    FiberContext::switch_to(self.context, block.scheduler, nullptr, true);
    std::terminate();  // a returned fiber is never resumed
}

// In a fiber: waits in `state` until the scheduler releases it, and returns its result.
unsigned long long wait(ThreadState state) {
    if (running == nullptr) {
        throw Error(
            "kiln: a barrier or warp function was called by a kernel whose threads run as a plain "
            "loop (the module was compiled without one)");
    }
    Block& block = *running;
    FiberThread& self = (*block.threads)[block.current];
    self.state = state;
    FiberContext::switch_to(self.context, block.scheduler, nullptr);
    return self.result;
}

unsigned barrier(int predicate) {
    if (running != nullptr) {
        (*running->threads)[running->current].predicate = predicate != 0 ? 1 : 0;
    }
    return static_cast<unsigned>(wait(ThreadState::barrier));
}

unsigned long long warp(unsigned kind, unsigned mask, unsigned long long value, int operand,
                        int width) {
    if (running != nullptr) {
        (*running->threads)[running->current].request = {static_cast<WarpKind>(kind), mask, value,
                                                         operand, width};
    }
    return wait(ThreadState::warp);
}

// Releases the warp functions of warp `w` that every lane they name has reached; true if any.
bool release_warp(Block& block, unsigned w) {
    auto& threads = *block.threads;
    const unsigned base = w * warp_lanes;
    const unsigned lanes = std::min(warp_lanes, block.count - base);
    const unsigned existing = lanes == warp_lanes ? ~0U : (1U << lanes) - 1;
    std::array<WarpRequest, warp_lanes> requests{};
    unsigned waiting = 0;
    unsigned returned = 0;
    for (unsigned lane = 0; lane < lanes; ++lane) {
        const FiberThread& thread = threads[base + lane];
        if (thread.state == ThreadState::warp) {
            waiting |= 1U << lane;
            requests.at(lane) = thread.request;
        } else if (thread.state == ThreadState::returned) {
            returned |= 1U << lane;
        }
    }
    bool released = false;
    while (waiting != 0) {
        const auto lane = static_cast<unsigned>(__builtin_ctz(waiting));
        const WarpRequest& request = requests.at(lane);
        // Lanes at __activemask together are the active ones; other functions wait for their mask.
        unsigned group = 0;
        for (unsigned other = lane; other < lanes; ++other) {
            const WarpRequest& r = requests.at(other);
            const bool same = request.kind == kiln_warp_activemask
                                  ? r.kind == kiln_warp_activemask && r.operand == request.operand
                                  : r.kind != kiln_warp_activemask && r.mask == request.mask;
            if (((waiting >> other) & 1U) != 0 && same) {
                group |= 1U << other;
            }
        }
        waiting &= ~group;
        const unsigned needed =
            request.kind == kiln_warp_activemask ? group : request.mask & existing;
        if ((needed & returned) != 0) {
            const auto gone = static_cast<unsigned>(__builtin_ctz(needed & returned));
            fail_block(block, "thread " + thread_name(block, base + gone) +
                                  " returned while thread " + thread_name(block, base + lane) +
                                  " waits for it at a warp function of mask " + hex(request.mask));
        }
        if ((needed & ~group) != 0) {
            continue;
        }
        const WarpValues results = warp_results(requests, group);
        for (unsigned other = 0; other < lanes; ++other) {
            if (((group >> other) & 1U) != 0) {
                threads[base + other].result = results[other];
                threads[base + other].state = ThreadState::ready;
            }
        }
        released = true;
    }
    return released;
}

// Releases what can be released once no fiber is ready; an Error when nothing can be.
void release(Block& block) {
    auto& threads = *block.threads;
    bool released = false;
    for (unsigned w = 0; w * warp_lanes < block.count; ++w) {
        released = release_warp(block, w) || released;
    }
    if (released) {
        return;
    }
    unsigned at_barrier = 0;
    unsigned passed = 0;
    for (unsigned t = 0; t < block.count; ++t) {
        if (threads[t].state == ThreadState::barrier) {
            ++at_barrier;
            passed += static_cast<unsigned>(threads[t].predicate);
        }
    }
    if (at_barrier == block.count) {
        for (auto& thread : threads) {
            thread.result = passed;
            thread.state = ThreadState::ready;
        }
        return;
    }
    if (at_barrier > 0) {
        const std::string gone = threads_in(block, ThreadState::returned);
        fail_block(block, threads_in(block, ThreadState::barrier) + " wait at __syncthreads " +
                              (gone.empty() ? "while " + threads_in(block, ThreadState::warp) +
                                                  " wait at a warp function"
                                            : "while " + gone + " returned without reaching it"));
    }
    fail_block(block, threads_in(block, ThreadState::warp) +
                          " wait at warp functions that the lanes they name never reach");
}

void run_block(void (*thread)(void*, unsigned), void* context, const unsigned* index,
               const unsigned* dim) {
    Block block;
    block.thread = thread;
    block.context = context;
    block.index = index;
    block.dim = dim;
    block.count = dim[0] * dim[1] * dim[2];
    block.threads = &fiber_threads;
    while (stacks.size() < block.count) {
        stacks.push_back(std::make_unique<FiberStack>());
    }
    fiber_threads.assign(block.count, FiberThread{});
    for (unsigned t = 0; t < block.count; ++t) {
        fiber_threads[t].context.start(*stacks[t], &fiber_main, &fiber_threads[t]);
    }
    struct Running {
        explicit Running(Block& block) { running = &block; }
        ~Running() { running = nullptr; }
        Running(const Running&) = delete;
        Running& operator=(const Running&) = delete;
        Running(Running&&) = delete;
        Running& operator=(Running&&) = delete;
    } const guard(block);
    // Fibers left waiting when the block fails never finish: their stacks start afresh.
    const auto abandon = [&] {
        for (unsigned t = 0; t < block.count; ++t) {
            if (fiber_threads[t].state != ThreadState::returned) {
                stacks[t]->forget_frames();
            }
        }
    };
    try {
        unsigned returned = 0;
        while (returned < block.count) {
            for (unsigned t = 0; t < block.count; ++t) {
                if (fiber_threads[t].state != ThreadState::ready) {
                    continue;
                }
                block.current = t;
                FiberContext::switch_to(block.scheduler, fiber_threads[t].context, stacks[t].get());
                if (block.failure) {
                    std::rethrow_exception(block.failure);
                }
                returned += fiber_threads[t].state == ThreadState::returned ? 1 : 0;
            }
            if (returned < block.count) {
                release(block);
            }
        }
    } catch (...) {
        abandon();
        throw;
    }
}

const BlockRuntime runtime{&run_block, &barrier, &warp};

}  // namespace

const BlockRuntime& block_runtime() noexcept {
    return runtime;
}

}  // namespace kiln::detail::host
