// An array whose elements are computed when first read: a deferred expression (lazy fusion,
// core/fusion/lazy_expression.cpp) behind an ndarray. The ndarray's memory() asks for it, and
// before any memory is handed out, the deferred expressions that read it run, so that an in-place
// write cannot change what an expression issued earlier reads.
#pragma once

#include <boost/container/small_vector.hpp>
#include <kiln/stream_view.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace kiln::detail {

class PendingArray;

// What a deferred expression reads: an allocation, or a pending array (`pending`, which
// `allocation` then names).
struct ReadSource {
    const void* allocation = nullptr;
    const PendingArray* pending = nullptr;
};

class PendingArray : public std::enable_shared_from_this<PendingArray> {
public:
    PendingArray() = default;
    virtual ~PendingArray();
    PendingArray(const PendingArray&) = delete;
    PendingArray& operator=(const PendingArray&) = delete;
    PendingArray(PendingArray&&) = delete;
    PendingArray& operator=(PendingArray&&) = delete;

    // The elements' memory (C order, offset 0), computed on the first call.
    [[nodiscard]] const std::shared_ptr<void>& memory();
    // Computes it now unless it is computed, or being computed on any thread (so that this never
    // waits); whether it computed it.
    [[nodiscard]] bool compute_unless_busy();
    // Whether memory() has been computed.
    [[nodiscard]] bool evaluated() const;
    // The stream the expression was issued on, where it runs.
    [[nodiscard]] virtual StreamView stream() const noexcept = 0;

protected:
    // Launches the computation on stream() and returns its memory; called once.
    [[nodiscard]] virtual std::shared_ptr<void> compute() = 0;
    // Drops what compute() read, so that its inputs may be freed.
    virtual void release_inputs() noexcept = 0;
    // Records that this expression reads `sources` (allocations, or other pending arrays), so
    // that handing out that memory runs this first. Call once, from the constructor's owner once
    // the object is shared.
    void reads(std::span<const ReadSource> sources);

private:
    // Computes memory_ and leaves the registry; mutex_ held.
    void evaluate();
    // Leaves the registry: computed, or destroyed; forget_locked with its lock held.
    void forget() noexcept;
    void forget_locked() noexcept;

    friend class LiveList;

    mutable std::mutex mutex_;
    std::shared_ptr<void> memory_;
    std::atomic<bool> evaluated_{false};
    boost::container::small_vector<const void*, 3> sources_;  // an operation's, inline
    // Its place in the registry's list of live expressions, and the stream it was issued on.
    PendingArray* live_previous_ = nullptr;
    PendingArray* live_next_ = nullptr;
    bool listed_ = false;
    StreamView issued_on_;
};

// Marks what this thread is doing in lazy fusion's own code while it lives. Marks nest (computing
// an expression may run short of memory, which computes others); the questions ask of them all.
class ThreadActivity {
public:
    enum class Kind : std::uint8_t {
        // Running lazy fusion's own kernel, a deferred expression's or a fused reduction's: the
        // memory it touches is read by the lazy machinery itself, so that runs no deferred readers
        // and no flush.
        computing,
        // Running deferred expressions because memory ran short: an allocation failing meanwhile
        // starts no second round.
        freeing_memory,
    };

    // `expression`: the pending array being computed, when there is one.
    explicit ThreadActivity(Kind kind, const PendingArray* expression = nullptr) noexcept;
    ~ThreadActivity();
    ThreadActivity(const ThreadActivity&) = delete;
    ThreadActivity& operator=(const ThreadActivity&) = delete;
    ThreadActivity(ThreadActivity&&) = delete;
    ThreadActivity& operator=(ThreadActivity&&) = delete;

    // Whether this thread is inside a mark of `kind`.
    [[nodiscard]] static bool inside(Kind kind) noexcept;
    // Whether this thread is computing `expression`, whose lock it then holds.
    [[nodiscard]] static bool computing(const PendingArray* expression) noexcept;

private:
    Kind kind_;
    const PendingArray* expression_;
    const ThreadActivity* outer_;  // this thread's enclosing mark, or nullptr
};

// Runs every deferred expression that reads `source`, unless this thread is computing one.
void run_readers_of(const void* source);

// Runs every deferred expression of the process, for a caller that means the whole process;
// kiln's own synchronization points run only their stream's or device's (below).
void run_all_pending();

// Runs the deferred expressions issued on `stream` (its device named): the stream is about to be
// synchronized, recorded, waited on, captured, given a host function or destroyed, so work issued
// on it before must be on it.
void run_pending_on(StreamView stream);

// Runs the deferred expressions issued on any stream of `device`: it is about to be synchronized.
void run_pending_on_device(int device);

// Memory of `device` ran short: runs its deferred expressions, so that the arrays only their nodes
// hold are freed; one whose own result does not fit stays pending. Whether any ran (then the
// allocation is worth another try).
[[nodiscard]] bool run_pending_for_memory(int device);

// The number of deferred expressions not yet computed (for tests and reports).
[[nodiscard]] std::size_t pending_count();

}  // namespace kiln::detail
