#include "stream_queue.hpp"

#include "capture.hpp"
#include "handle_text.hpp"

#include <kiln/error.hpp>

#include <chrono>
#include <thread>
#include <utility>

namespace kiln::detail::host {

namespace {

thread_local bool stream_worker = false;

// How long a worker whose queue ran empty stays awake before it sleeps. A task pushed meanwhile,
// typically the next launch after a synchronize, then starts without a thread being woken. On the
// 2-vCPU development VM the wake-up cost the launching thread 7 - 13 us: a new kernel's first call
// from the memory cache, right after a synchronize, took 9.9 - 15.8 us, and 2.8 us with this.
constexpr std::chrono::microseconds awake_after_work{50};

}  // namespace

bool on_stream_worker() noexcept {
    return stream_worker;
}

std::uint64_t StreamState::last() const {
    const std::scoped_lock lock(mutex_);
    return pushed_;
}

bool StreamState::done(std::uint64_t number) const {
    const std::scoped_lock lock(mutex_);
    return completed_ >= number;
}

void StreamState::wait(std::uint64_t number) const {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return completed_ >= number; });
}

std::exception_ptr StreamState::take_error() {
    const std::scoped_lock lock(mutex_);
    return std::exchange(error_, nullptr);
}

bool StreamState::failed() const {
    const std::scoped_lock lock(mutex_);
    return error_ != nullptr;
}

void StreamState::leave_capture(const Capture& capture) {
    const std::scoped_lock lock(mutex_);
    if (capture_.get() == &capture) {
        capture_.reset();
    }
}

StreamQueue::~StreamQueue() {
    {
        const std::scoped_lock lock(state_->mutex_);
        state_->stopping_ = true;
    }
    state_->changed_.notify_all();
    if (!worker_.joinable()) {
        return;
    }
    // Ended by its own worker (a host function held the last owner): that thread cannot join
    // itself, and finishes the queue alone, holding the state.
    if (worker_.get_id() == std::this_thread::get_id()) {
        worker_.detach();
    } else {
        worker_.join();
    }
}

std::uint64_t StreamQueue::push(Task task) {
    StreamState& state = *state_;
    std::uint64_t number = 0;
    {
        const std::scoped_lock lock(state.mutex_);
        if (state.capture_) {
            return state.capture_->add(state, std::move(task));
        }
        // Started before the task is counted: if starting throws, nothing waits for a task that
        // no thread would run.
        if (!worker_.joinable()) {
            worker_ = std::thread([held = state_] { work(*held); });
        }
        state.tasks_.push_back(std::move(task));
        number = ++state.pushed_;
    }
    state.changed_.notify_all();
    return number;
}

void StreamQueue::begin_capture(void* handle) {
    const std::scoped_lock lock(state_->mutex_);
    if (state_->capture_) {
        throw Error("kiln: begin_capture: host stream " + handle_text(handle) +
                    " is already capturing");
    }
    state_->capture_ = std::make_shared<Capture>(state_, handle);
}

std::vector<Task> StreamQueue::end_capture() {
    std::shared_ptr<Capture> capture = this->capture();
    if (!capture) {
        throw Error("kiln: end_capture: the host stream is not capturing");
    }
    if (!capture->began_on(*state_)) {
        throw Error(
            "kiln: end_capture: the host stream was forked into a capture begun on another "
            "stream; end the capture on that stream (CUDA refuses it too: "
            "cudaErrorStreamCaptureUnmatched)");
    }
    return capture->end();
}

bool StreamQueue::capturing() const {
    return capture() != nullptr;
}

std::shared_ptr<Capture> StreamQueue::capture() const {
    const std::scoped_lock lock(state_->mutex_);
    return state_->capture_;
}

void StreamQueue::wait_in_capture(const std::shared_ptr<Capture>& capture,
                                  const StreamState& recorder, std::uint64_t count, void* handle) {
    {
        const std::scoped_lock lock(state_->mutex_);
        if (!state_->capture_) {
            capture->fork(state_, handle);
            state_->capture_ = capture;
        } else if (state_->capture_ != capture) {
            throw Error("kiln: stream_wait_event: host stream " + handle_text(handle) +
                        " is capturing a graph and waits on an event recorded in another "
                        "stream's capture; one graph cannot depend on another's work (CUDA "
                        "refuses it too: cudaErrorStreamCaptureIsolation)");
        }
    }
    capture->join(*state_, recorder, count);
}

void StreamQueue::work(StreamState& state) {
    stream_worker = true;
    std::unique_lock lock(state.mutex_);
    const auto ready = [&] { return state.stopping_ || !state.tasks_.empty(); };
    for (;;) {
        if (!ready()) {
            const auto until = std::chrono::steady_clock::now() + awake_after_work;
            while (!ready() && std::chrono::steady_clock::now() < until) {
                lock.unlock();
                std::this_thread::yield();
                lock.lock();
            }
            state.changed_.wait(lock, ready);
        }
        if (state.tasks_.empty()) {
            return;  // stopping, with every task run
        }
        Task task = std::move(state.tasks_.front());
        state.tasks_.pop_front();
        lock.unlock();
        std::exception_ptr error;
        try {
            task();
        } catch (...) {
            error = std::current_exception();
        }
        task = nullptr;  // what the task held is released before it counts as done
        lock.lock();
        if (error && !state.error_) {
            state.error_ = error;
        }
        ++state.completed_;
        state.changed_.notify_all();
    }
}

}  // namespace kiln::detail::host
