#include "stream_queue.hpp"

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
        if (state.captured_) {
            state.captured_->push_back(std::move(task));
            return state.pushed_;
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

void StreamQueue::begin_capture() {
    const std::scoped_lock lock(state_->mutex_);
    if (state_->captured_) {
        throw Error("kiln: begin_capture: the host stream is already capturing");
    }
    state_->captured_.emplace();
}

std::vector<Task> StreamQueue::end_capture() {
    const std::scoped_lock lock(state_->mutex_);
    if (!state_->captured_) {
        throw Error("kiln: end_capture: the host stream is not capturing");
    }
    std::vector<Task> tasks = std::move(*state_->captured_);
    state_->captured_.reset();
    return tasks;
}

bool StreamQueue::capturing() const {
    const std::scoped_lock lock(state_->mutex_);
    return state_->captured_.has_value();
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
