// A host stream: an in-order queue of tasks that one worker thread runs, asynchronously to the
// threads that enqueue them, as a GPU runs a stream's work. Tasks are numbered in order, so that
// "everything up to task n is done" (an event, a wait) is one comparison.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace kiln::detail::host {

// One piece of a stream's work. Copyable, so that a captured graph replays it.
using Task = std::function<void()>;

class StreamQueue {
public:
    // A blocking stream orders itself with the legacy default stream (see Streams).
    explicit StreamQueue(bool blocking) : blocking_(blocking) {}
    // Finishes the queued work, then ends the worker.
    ~StreamQueue();
    StreamQueue(const StreamQueue&) = delete;
    StreamQueue& operator=(const StreamQueue&) = delete;
    StreamQueue(StreamQueue&&) = delete;
    StreamQueue& operator=(StreamQueue&&) = delete;

    [[nodiscard]] bool blocking() const noexcept { return blocking_; }

    // Appends a task (or records it, while capturing) and returns its number: it is done once
    // done(number). The worker starts with the first task.
    std::uint64_t push(Task task);

    // The number of the last task pushed; 0 before any.
    [[nodiscard]] std::uint64_t last() const;
    // Whether every task up to `number` has run.
    [[nodiscard]] bool done(std::uint64_t number) const;
    // Blocks until done(number).
    void wait(std::uint64_t number) const;

    // The first exception a task threw since the last call, and clears it.
    [[nodiscard]] std::exception_ptr take_error();

    // Capture: tasks pushed from begin_capture() to end_capture() are recorded, not run.
    void begin_capture();
    [[nodiscard]] std::vector<Task> end_capture();
    [[nodiscard]] bool capturing() const;

private:
    void work();

    bool blocking_;
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::deque<Task> tasks_;
    std::uint64_t pushed_ = 0;
    std::uint64_t completed_ = 0;
    std::exception_ptr error_;
    bool stopping_ = false;
    std::optional<std::vector<Task>> captured_;
    std::thread worker_;
};

}  // namespace kiln::detail::host
