// The host backend's streams by their native handles: the legacy default stream (the null
// handle), each thread's per-thread default stream, and the streams users create. Work pushed
// here keeps CUDA's legacy-stream rule: the legacy stream waits for every blocking stream's
// earlier work, and a blocking stream waits for the legacy stream's.
#pragma once

#include "stream_queue.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace kiln::detail::host {

class Streams {
public:
    // The handle of each thread's per-thread default stream (CUDA's cudaStreamPerThread).
    [[nodiscard]] static void* per_thread_handle() noexcept;

    [[nodiscard]] void* create(int device, bool non_blocking);
    // The device a created stream was made on; -1 for the legacy and per-thread handles, which
    // every device shares here.
    [[nodiscard]] int device(void* handle);
    // Forgets the handle, then waits for the work already queued on it. Error for a handle this
    // backend did not create or already destroyed.
    void destroy(void* handle);

    // The queue behind a handle. Error for a handle this backend did not create or destroyed.
    [[nodiscard]] std::shared_ptr<StreamQueue> queue(void* handle);

    // Queues `task` on the stream, after the implicit waits of the legacy-stream rule; returns
    // its number in that stream.
    std::uint64_t push(void* handle, Task task);

    // Waits for the stream's work, then rethrows the first exception a task of it threw. Error
    // from a host function, which would wait for itself (CUDA forbids it too).
    void synchronize(void* handle);
    // Waits for every stream's work, then rethrows the first exception any of them threw. Error
    // from a host function, as synchronize.
    void synchronize_all();
    // Waits for every stream's work, reporting nothing (the next synchronize does); nothing on a
    // stream's worker, which would wait for itself.
    void wait_all();

private:
    // Every stream, the legacy one last.
    [[nodiscard]] std::vector<std::shared_ptr<StreamQueue>> all();
    [[nodiscard]] std::shared_ptr<StreamQueue> legacy();
    // The calling thread's per-thread stream, made on first use; it goes when the thread ends.
    [[nodiscard]] std::shared_ptr<StreamQueue> per_thread_queue();
    void forget(const std::shared_ptr<StreamQueue>& queue);

    std::mutex mutex_;
    // The handles create() gave out and destroy() has not taken back.
    std::unordered_set<void*> handles_;
    std::shared_ptr<StreamQueue> legacy_;
    // Every stream but the legacy one, per-thread streams included.
    std::vector<std::shared_ptr<StreamQueue>> streams_;
    // Orders the implicit waits of concurrent pushes, so that no two streams wait on each other.
    std::mutex ordering_;
};

}  // namespace kiln::detail::host
