// A host stream: an in-order queue of tasks that one worker thread runs, asynchronously to the
// threads that enqueue them, as a GPU runs a stream's work. Tasks are numbered in order, so that
// "everything up to task n is done" (an event, a wait) is one comparison.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::detail::host {

// One piece of a stream's work. Copyable, so that a captured graph replays it.
using Task = std::function<void()>;

class Capture;

// Everything of a stream but its thread: the queued tasks, how far they have got, and the first
// exception one threw. Events, and the waits one stream queues on another, hold this and never
// the queue, so a queue (and the join of its thread) never ends on a worker thread.
class StreamState {
public:
    // The number of the last task pushed; 0 before any.
    [[nodiscard]] std::uint64_t last() const;
    // Whether every task up to `number` has run.
    [[nodiscard]] bool done(std::uint64_t number) const;
    // Blocks until done(number).
    void wait(std::uint64_t number) const;
    // The first exception a task threw since the last call, and clears it.
    [[nodiscard]] std::exception_ptr take_error();
    // Whether a task threw an exception that take_error() has not yet taken.
    [[nodiscard]] bool failed() const;
    // Stops recording into `capture`, if the stream still does.
    void leave_capture(const Capture& capture);

private:
    friend class StreamQueue;

    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::deque<Task> tasks_;
    std::uint64_t pushed_ = 0;
    std::uint64_t completed_ = 0;
    std::exception_ptr error_;
    bool stopping_ = false;
    // The graph capture this stream records into, if any (see capture.hpp).
    std::shared_ptr<Capture> capture_;
};

class StreamQueue {
public:
    // A blocking stream orders itself with the legacy default stream (see Streams).
    explicit StreamQueue(bool blocking)
        : blocking_(blocking), state_(std::make_shared<StreamState>()) {}
    // Finishes the queued work, then ends the worker.
    ~StreamQueue();
    StreamQueue(const StreamQueue&) = delete;
    StreamQueue& operator=(const StreamQueue&) = delete;
    StreamQueue(StreamQueue&&) = delete;
    StreamQueue& operator=(StreamQueue&&) = delete;

    [[nodiscard]] bool blocking() const noexcept { return blocking_; }
    // The state that events and other streams' waits hold.
    [[nodiscard]] const std::shared_ptr<StreamState>& state() const noexcept { return state_; }

    // Appends a task (or records it, while capturing) and returns its number: it is done once
    // done(number). The worker starts with the first task.
    std::uint64_t push(Task task);

    [[nodiscard]] std::uint64_t last() const { return state_->last(); }
    [[nodiscard]] bool done(std::uint64_t number) const { return state_->done(number); }
    void wait(std::uint64_t number) const { state_->wait(number); }
    [[nodiscard]] std::exception_ptr take_error() { return state_->take_error(); }

    // Capture: tasks pushed from begin_capture() to end_capture() are recorded, not run, with
    // those of the streams forked into the capture. `handle` names this stream in errors.
    void begin_capture(void* handle);
    // The capture's tasks. Error on a stream forked into a capture begun on another stream.
    [[nodiscard]] std::vector<Task> end_capture();
    [[nodiscard]] bool capturing() const;
    // The capture this stream records into; null when it does not.
    [[nodiscard]] std::shared_ptr<Capture> capture() const;
    // This stream (`handle`) waits on an event that `recorder` recorded, after its `count`th
    // task, in `capture`: it joins the capture (a fork), or it is in it already (a join).
    void wait_in_capture(const std::shared_ptr<Capture>& capture, const StreamState& recorder,
                         std::uint64_t count, void* handle);

private:
    static void work(StreamState& state);

    bool blocking_;
    std::shared_ptr<StreamState> state_;
    std::thread worker_;
};

// Whether the calling thread is a stream's worker, running one of its tasks (a host function):
// waiting there for a stream would wait for the task itself.
[[nodiscard]] bool on_stream_worker() noexcept;

}  // namespace kiln::detail::host
