// The CPU threads that run one kernel launch's blocks in parallel. Every stream's worker hands its
// launches here, so a process has one set of threads however many streams it uses.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::detail::host {

class ThreadPool {
public:
    // `threads` in all, the calling thread of run() included; at least 1.
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;
    ThreadPool(ThreadPool&&) = delete;
    ThreadPool& operator=(ThreadPool&&) = delete;

    // The process's pool, of KILN_HOST_THREADS threads, else one per hardware thread. Never
    // destroyed: a launch may run while the process exits.
    [[nodiscard]] static ThreadPool& instance();

    [[nodiscard]] int threads() const noexcept { return threads_; }

    // Calls body(begin, end) over contiguous ranges that cover [0, count) once, on the calling
    // thread and the pool's, and returns when all are done. Ranges are handed out as threads
    // come free, so uneven work balances. The first exception a range throws is rethrown here,
    // after every range has run. Safe to call from several threads at once.
    void run(std::int64_t count, const std::function<void(std::int64_t, std::int64_t)>& body);

private:
    struct Job;

    void work();
    // Stops and joins the helper threads.
    void stop();
    static void take_ranges(Job& job);

    int threads_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::shared_ptr<Job>> jobs_;
    bool stopping_ = false;
    std::vector<std::thread> helpers_;
};

}  // namespace kiln::detail::host
