#include "streams.hpp"

#include "../../core/lifetime.hpp"
#include "handle_text.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <string>
#include <utility>

namespace kiln::detail::host {

namespace {

// What a handle points to: its queue. The legacy stream's handle is null, and per-thread streams
// share one sentinel handle, so these only name created streams.
struct Handle {
    std::shared_ptr<StreamQueue> queue;
    int device = 0;
};

// CUDA's cudaStreamPerThread value, which no allocation returns.
void* const per_thread = reinterpret_cast<void*>(0x2);

void rethrow(StreamQueue& queue) {
    if (const std::exception_ptr error = queue.take_error()) {
        std::rethrow_exception(error);
    }
}

// A host function that waited for a stream would wait for itself: its own task counts as done
// only once it returns.
void refuse_on_worker(const char* call) {
    if (on_stream_worker()) {
        throw Error(std::string("kiln: ") + call +
                    " was called from a host function running on a host stream, where it would "
                    "wait for itself; a host function must not synchronize or copy "
                    "synchronously (CUDA refuses it too: cudaErrorNotPermitted)");
    }
}

// Queues a task on `stream` that waits until task `number` of `target` has run.
void push_wait(StreamQueue& stream, std::shared_ptr<StreamState> target, std::uint64_t number) {
    (void)stream.push([target = std::move(target), number] { target->wait(number); });
}

// The legacy stream's wait for a blocking stream also takes over that stream's failure, so the
// legacy stream's next synchronization (a synchronous copy's) reports it, as CUDA reports a
// fault of any stream at the next synchronizing call.
void push_legacy_wait(StreamQueue& legacy, std::shared_ptr<StreamState> target,
                      std::uint64_t number) {
    (void)legacy.push([target = std::move(target), number] {
        target->wait(number);
        if (const std::exception_ptr error = target->take_error()) {
            std::rethrow_exception(error);
        }
    });
}

}  // namespace

void* Streams::per_thread_handle() noexcept {
    return per_thread;
}

void* Streams::create(int device, bool non_blocking) {
    auto handle =
        std::make_unique<Handle>(Handle{std::make_shared<StreamQueue>(!non_blocking), device});
    const std::scoped_lock lock(mutex_);
    streams_.push_back(handle->queue);
    handles_.insert(handle.get());
    return handle.release();
}

void Streams::destroy(void* handle) {
    std::unique_ptr<Handle> owned;
    {
        const std::scoped_lock lock(mutex_);
        if (handles_.erase(handle) == 0) {
            throw Error("kiln: destroying host stream " + handle_text(handle) +
                        ": not a stream the host backend created, or already destroyed");
        }
        owned.reset(static_cast<Handle*>(handle));
    }
    forget(owned->queue);
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
        return per_thread_queue();
    }
    const std::scoped_lock lock(mutex_);
    if (!handles_.contains(handle)) {
        throw Error("kiln: stream " + handle_text(handle) +
                    " is not a host stream: not made by the host backend (a GPU backend's "
                    "stream?), or destroyed");
    }
    return static_cast<Handle*>(handle)->queue;
}

int Streams::device(void* handle) {
    if (handle == nullptr || handle == per_thread) {
        return -1;
    }
    const std::scoped_lock lock(mutex_);
    if (!handles_.contains(handle)) {
        throw Error("kiln: stream " + handle_text(handle) +
                    " is not a host stream: not made by the host backend, or destroyed");
    }
    return static_cast<Handle*>(handle)->device;
}

std::shared_ptr<StreamQueue> Streams::per_thread_queue() {
    // When the thread ends, its stream finishes its work and goes, as CUDA's does; while the
    // process exits it stays, so that no thread is joined then.
    struct Mine {
        Streams* owner = nullptr;
        std::shared_ptr<StreamQueue> queue;
        Mine() = default;
        Mine(const Mine&) = delete;
        Mine& operator=(const Mine&) = delete;
        Mine(Mine&&) = delete;
        Mine& operator=(Mine&&) = delete;
        ~Mine() {
            if (owner != nullptr && !process_exiting()) {
                owner->forget(queue);
            }
        }
    };
    thread_local Mine mine;
    if (!mine.queue) {
        mine.queue = std::make_shared<StreamQueue>(true);
        mine.owner = this;
        const std::scoped_lock lock(mutex_);
        streams_.push_back(mine.queue);
    }
    return mine.queue;
}

void Streams::forget(const std::shared_ptr<StreamQueue>& queue) {
    const std::scoped_lock lock(mutex_);
    std::erase(streams_, queue);
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
            // done() before failed(): a task's failure is kept before it counts as done.
            if (const std::uint64_t last = stream->last();
                !stream->done(last) || stream->state()->failed()) {
                push_legacy_wait(*target, stream->state(), last);
            }
        }
    } else {
        const auto before = legacy();
        if (const std::uint64_t last = before->last(); !before->done(last)) {
            push_wait(*target, before->state(), last);
        }
    }
    return target->push(std::move(task));
}

void Streams::synchronize(void* handle) {
    refuse_on_worker("synchronize");
    const std::shared_ptr<StreamQueue> target = queue(handle);
    target->wait(target->last());
    rethrow(*target);
}

std::vector<std::shared_ptr<StreamQueue>> Streams::all() {
    const std::scoped_lock lock(mutex_);
    std::vector<std::shared_ptr<StreamQueue>> every = streams_;
    if (legacy_) {
        every.push_back(legacy_);
    }
    return every;
}

void Streams::synchronize_all() {
    refuse_on_worker("device synchronize");
    const auto every = all();
    for (const auto& stream : every) {
        stream->wait(stream->last());
    }
    for (const auto& stream : every) {
        rethrow(*stream);
    }
}

void Streams::wait_all() {
    if (on_stream_worker()) {
        return;
    }
    for (const auto& stream : all()) {
        stream->wait(stream->last());
    }
}

}  // namespace kiln::detail::host
