#include "stream_queue.hpp"

#include <kiln/error.hpp>

#include <utility>

namespace kiln::detail::host {

StreamQueue::~StreamQueue() {
    {
        const std::scoped_lock lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    if (worker_.joinable()) {
        worker_.join();
    }
}

std::uint64_t StreamQueue::push(Task task) {
    std::uint64_t number = 0;
    {
        const std::scoped_lock lock(mutex_);
        if (captured_) {
            captured_->push_back(std::move(task));
            return pushed_;
        }
        tasks_.push_back(std::move(task));
        number = ++pushed_;
        if (!worker_.joinable()) {
            worker_ = std::thread([this] { work(); });
        }
    }
    changed_.notify_all();
    return number;
}

std::uint64_t StreamQueue::last() const {
    const std::scoped_lock lock(mutex_);
    return pushed_;
}

bool StreamQueue::done(std::uint64_t number) const {
    const std::scoped_lock lock(mutex_);
    return completed_ >= number;
}

void StreamQueue::wait(std::uint64_t number) const {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return completed_ >= number; });
}

std::exception_ptr StreamQueue::take_error() {
    const std::scoped_lock lock(mutex_);
    return std::exchange(error_, nullptr);
}

void StreamQueue::begin_capture() {
    const std::scoped_lock lock(mutex_);
    if (captured_) {
        throw Error("kiln: begin_capture: the host stream is already capturing");
    }
    captured_.emplace();
}

std::vector<Task> StreamQueue::end_capture() {
    const std::scoped_lock lock(mutex_);
    if (!captured_) {
        throw Error("kiln: end_capture: the host stream is not capturing");
    }
    std::vector<Task> tasks = std::move(*captured_);
    captured_.reset();
    return tasks;
}

bool StreamQueue::capturing() const {
    const std::scoped_lock lock(mutex_);
    return captured_.has_value();
}

void StreamQueue::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) {
            return;  // stopping, with every task run
        }
        Task task = std::move(tasks_.front());
        tasks_.pop_front();
        lock.unlock();
        std::exception_ptr error;
        try {
            task();
        } catch (...) {
            error = std::current_exception();
        }
        task = nullptr;  // what the task held is released before it counts as done
        lock.lock();
        if (error && !error_) {
            error_ = error;
        }
        ++completed_;
        changed_.notify_all();
    }
}

}  // namespace kiln::detail::host
