#include "thread_pool.hpp"

#include "../../core/env.hpp"

#include <kiln/error.hpp>

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>
#include <system_error>
#include <thread>

namespace kiln::detail::host {

namespace {

// The CPUs this process may run on (its affinity mask, which MPI launchers and cgroups narrow),
// not every CPU of the machine.
int usable_cpus() {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (sched_getaffinity(0, sizeof(mask), &mask) == 0) {
        return std::max(1, CPU_COUNT(&mask));
    }
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace

// One run(): its ranges, handed out by `next`; `finished` counts those done.
struct ThreadPool::Job {
    const std::function<void(std::int64_t, std::int64_t)>* body = nullptr;
    std::int64_t count = 0;
    std::int64_t ranges = 0;
    std::atomic<std::int64_t> next{0};
    std::atomic<std::int64_t> finished{0};
    std::mutex mutex;
    std::condition_variable all_finished;
    std::exception_ptr error;
};

ThreadPool::ThreadPool(int threads) : threads_(std::max(1, threads)) {
    helpers_.reserve(static_cast<std::size_t>(threads_ - 1));
    try {
        for (int t = 1; t < threads_; ++t) {
            helpers_.emplace_back([this] { work(); });
        }
    } catch (const std::system_error& e) {
        stop();
        throw Error("kiln: the host backend could not start " + std::to_string(threads_) +
                    " threads (KILN_HOST_THREADS): " + e.what());
    }
}

ThreadPool::~ThreadPool() {
    stop();
}

void ThreadPool::stop() {
    {
        const std::scoped_lock lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& helper : helpers_) {
        helper.join();
    }
}

ThreadPool& ThreadPool::instance() {
    static ThreadPool& pool = *[] {
        int threads = usable_cpus();
        if (const auto text = env::get("KILN_HOST_THREADS")) {
            threads = env::parse_index("KILN_HOST_THREADS", *text);
            if (threads < 1) {
                throw Error("kiln: KILN_HOST_THREADS is '" + std::string(*text) +
                            "': expected the number of threads, at least 1");
            }
        }
        return new ThreadPool(threads);
    }();
    return pool;
}

void ThreadPool::take_ranges(Job& job) {
    for (std::int64_t r = job.next.fetch_add(1); r < job.ranges; r = job.next.fetch_add(1)) {
        // Ranges differ in length by at most one.
        const std::int64_t begin = job.count * r / job.ranges;
        const std::int64_t end = job.count * (r + 1) / job.ranges;
        try {
            (*job.body)(begin, end);
        } catch (...) {
            const std::scoped_lock lock(job.mutex);
            if (!job.error) {
                job.error = std::current_exception();
            }
        }
        if (job.finished.fetch_add(1) + 1 == job.ranges) {
            const std::scoped_lock lock(job.mutex);
            job.all_finished.notify_all();
        }
    }
}

void ThreadPool::work() {
    for (;;) {
        std::shared_ptr<Job> job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (stopping_) {
                return;
            }
            job = jobs_.front();
            // A job whose ranges are all handed out needs no more helpers.
            if (job->next.load() >= job->ranges) {
                jobs_.pop_front();
                continue;
            }
        }
        take_ranges(*job);
    }
}

void ThreadPool::run(std::int64_t count,
                     const std::function<void(std::int64_t, std::int64_t)>& body) {
    if (count <= 0) {
        return;
    }
    // A few ranges per thread, so that threads that finish early take more.
    constexpr std::int64_t ranges_per_thread = 4;
    const std::int64_t ranges = std::min(count, std::int64_t{threads_} * ranges_per_thread);
    if (ranges == 1 || threads_ == 1) {
        body(0, count);
        return;
    }
    auto job = std::make_shared<Job>();
    job->body = &body;
    job->count = count;
    job->ranges = ranges;
    {
        const std::scoped_lock lock(mutex_);
        jobs_.push_back(job);
    }
    wake_.notify_all();
    take_ranges(*job);
    {
        std::unique_lock lock(job->mutex);
        job->all_finished.wait(lock, [&] { return job->finished.load() == job->ranges; });
    }
    {
        const std::scoped_lock lock(mutex_);
        std::erase(jobs_, job);
    }
    if (job->error) {
        std::rethrow_exception(job->error);
    }
}

}  // namespace kiln::detail::host
