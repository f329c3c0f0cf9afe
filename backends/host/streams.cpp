#include "streams.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <utility>

namespace kiln::detail::host {

namespace {

// What a handle points to: its queue. The legacy stream's handle is null, and per-thread streams
// share one sentinel handle, so these only name created streams.
struct Handle {
    std::shared_ptr<StreamQueue> queue;
};

// CUDA's cudaStreamPerThread value, which no allocation returns.
void* const per_thread = reinterpret_cast<void*>(0x2);

void rethrow(StreamQueue& queue) {
    if (const std::exception_ptr error = queue.take_error()) {
        std::rethrow_exception(error);
    }
}

}  // namespace

void push_wait(StreamQueue& stream, std::shared_ptr<StreamQueue> target, std::uint64_t number) {
    (void)stream.push([target = std::move(target), number] { target->wait(number); });
}

void* Streams::per_thread_handle() noexcept {
    return per_thread;
}

void* Streams::create(bool non_blocking) {
    auto handle = std::make_unique<Handle>(Handle{std::make_shared<StreamQueue>(!non_blocking)});
    const std::scoped_lock lock(mutex_);
    streams_.push_back(handle->queue);
    return handle.release();
}

void Streams::destroy(void* handle) {
    const std::unique_ptr<Handle> owned(static_cast<Handle*>(handle));
    const std::scoped_lock lock(mutex_);
    std::erase(streams_, owned->queue);
}

std::shared_ptr<StreamQueue> Streams::legacy() {
    const std::scoped_lock lock(mutex_);
    if (!legacy_) {
        legacy_ = std::make_shared<StreamQueue>(true);
    }
    return legacy_;
}

std::shared_ptr<StreamQueue> Streams::queue(void* handle) {
    if (handle == nullptr) {
        return legacy();
    }
    if (handle == per_thread) {
        // Each thread's own, kept for the life of the process like the legacy stream.
        thread_local std::shared_ptr<StreamQueue>* mine = nullptr;
        if (mine == nullptr) {
            auto queue = std::make_shared<StreamQueue>(true);
            const std::scoped_lock lock(mutex_);
            streams_.push_back(queue);
            mine = new std::shared_ptr<StreamQueue>(std::move(queue));
        }
        return *mine;
    }
    return static_cast<Handle*>(handle)->queue;
}

std::uint64_t Streams::push(void* handle, Task task) {
    const std::shared_ptr<StreamQueue> target = queue(handle);
    if (target->capturing() || !target->blocking()) {
        return target->push(std::move(task));
    }
    const std::scoped_lock order(ordering_);
    if (handle == nullptr) {
        std::vector<std::shared_ptr<StreamQueue>> blocking;
        {
            const std::scoped_lock lock(mutex_);
            std::copy_if(streams_.begin(), streams_.end(), std::back_inserter(blocking),
                         [](const auto& stream) { return stream->blocking(); });
        }
        for (auto& stream : blocking) {
            if (const std::uint64_t last = stream->last(); !stream->done(last)) {
                push_wait(*target, std::move(stream), last);
            }
        }
    } else {
        auto before = legacy();
        if (const std::uint64_t last = before->last(); !before->done(last)) {
            push_wait(*target, std::move(before), last);
        }
    }
    return target->push(std::move(task));
}

void Streams::synchronize(void* handle) {
    const std::shared_ptr<StreamQueue> target = queue(handle);
    target->wait(target->last());
    rethrow(*target);
}

void Streams::synchronize_all() {
    std::vector<std::shared_ptr<StreamQueue>> all;
    {
        const std::scoped_lock lock(mutex_);
        all = streams_;
        if (legacy_) {
            all.push_back(legacy_);
        }
    }
    for (const auto& stream : all) {
        stream->wait(stream->last());
    }
    for (const auto& stream : all) {
        rethrow(*stream);
    }
}

}  // namespace kiln::detail::host
