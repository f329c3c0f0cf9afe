// The ring schedule of staged transfers over a stand-in stream: a thread that runs the queued
// copies in order, late, as a DMA engine would. A slot reused too early would show as wrong data
// (every byte of the source depends on its offset) or as a slot changed under a queued copy.
#include "core/array/staging_ring.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <ostream>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using kiln::detail::StagingPlan;
using kiln::detail::StagingQueue;
using std::chrono::microseconds;

std::uint64_t checksum(const void* data, std::size_t bytes) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (const auto b : std::string_view(static_cast<const char*>(data), bytes)) {
        h = (h ^ static_cast<unsigned char>(b)) * 1099511628211ULL;
    }
    return h;
}

// One thread runs the queued copies and marks in order, each copy `copy_delay` after it starts,
// so the host threads would run ahead of it if nothing held them back. wait() returns
// `wait_delay` after the mark is reached, so slow readers stay in a slot long after its copy
// arrived. A copy whose source changed between being queued and being run counts as clobbered.
class FakeDma final : public StagingQueue {
public:
    FakeDma(microseconds copy_delay, microseconds wait_delay)
        : copy_delay_(copy_delay), wait_delay_(wait_delay), engine_([this] { run(); }) {}
    FakeDma(const FakeDma&) = delete;
    FakeDma(FakeDma&&) = delete;
    FakeDma& operator=(const FakeDma&) = delete;
    FakeDma& operator=(FakeDma&&) = delete;
    ~FakeDma() override {
        {
            const std::scoped_lock lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        engine_.join();
    }

    void copy(void* target, const void* source, std::size_t bytes) override {
        const std::scoped_lock lock(mutex_);
        check_caller();
        if (copies_ == fail_copy_at_) {
            throw kiln::BackendError("cudaMemcpyAsync", 700, "injected failure");
        }
        ++copies_;
        tasks_.push_back({target, source, bytes, checksum(source, bytes), std::nullopt, 0});
        changed_.notify_all();
    }
    void mark(std::size_t slot) override {
        const std::scoped_lock lock(mutex_);
        check_caller();
        grow(slot);
        tasks_.push_back({nullptr, nullptr, 0, 0, slot, ++recorded_[slot]});
        changed_.notify_all();
    }
    void wait(std::size_t slot) override {
        {
            std::unique_lock lock(mutex_);
            if (waits_ == fail_wait_at_) {
                throw kiln::BackendError("cudaEventSynchronize", 700, "injected failure");
            }
            ++waits_;
            grow(slot);
            const std::size_t want = recorded_[slot];
            changed_.wait(lock, [&] { return reached_[slot] >= want; });
        }
        std::this_thread::sleep_for(wait_delay_);
    }

    // Blocks until every queued copy has run, as a stream synchronize would.
    void drain() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return tasks_.empty() && !busy_; });
    }
    void fail_copy_at(std::size_t n) { fail_copy_at_ = n; }
    void fail_wait_at(std::size_t n) { fail_wait_at_ = n; }

    std::size_t clobbered() const { return clobbered_; }
    std::size_t copies() const { return copies_; }
    std::size_t foreign_calls() const { return foreign_calls_; }

private:
    struct Task {
        void* target;
        const void* source;
        std::size_t bytes;
        std::uint64_t sum;
        std::optional<std::size_t> slot;  // a mark
        std::size_t generation;
    };

    // copy and mark belong to the thread that started the transfer (the stream may be its own).
    void check_caller() {
        if (std::this_thread::get_id() != owner_) {
            ++foreign_calls_;
        }
    }
    void grow(std::size_t slot) {
        if (slot >= recorded_.size()) {
            recorded_.resize(slot + 1, 0);
            reached_.resize(slot + 1, 0);
        }
    }
    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            changed_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
            if (tasks_.empty()) {
                return;
            }
            const Task task = tasks_.front();
            tasks_.pop_front();
            busy_ = true;
            if (task.slot) {
                reached_[*task.slot] = task.generation;
            } else {
                lock.unlock();
                std::this_thread::sleep_for(copy_delay_);
                const bool intact = checksum(task.source, task.bytes) == task.sum;
                std::memcpy(task.target, task.source, task.bytes);
                lock.lock();
                clobbered_ += intact ? 0 : 1;
            }
            busy_ = false;
            changed_.notify_all();
        }
    }

    microseconds copy_delay_;
    microseconds wait_delay_;
    std::thread::id owner_ = std::this_thread::get_id();
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Task> tasks_;
    std::vector<std::size_t> recorded_;
    std::vector<std::size_t> reached_;
    bool busy_ = false;
    bool stopping_ = false;
    std::size_t copies_ = 0;
    std::size_t waits_ = 0;
    std::size_t clobbered_ = 0;
    std::size_t foreign_calls_ = 0;
    std::size_t fail_copy_at_ = SIZE_MAX;
    std::size_t fail_wait_at_ = SIZE_MAX;
    std::thread engine_;
};

// Byte i of a transfer: differs between any two offsets less than 2^32 apart in the low bytes of
// i, so a chunk landing in the wrong place or a stale slot shows.
std::vector<std::byte> pattern(std::size_t bytes) {
    std::vector<std::byte> out(bytes);
    for (std::size_t i = 0; i < bytes; ++i) {
        const auto x = static_cast<std::uint32_t>(i * 2654435761U);
        out[i] = static_cast<std::byte>((x >> 24) ^ (i >> 12));
    }
    return out;
}

constexpr std::size_t guard = 256;
constexpr auto guard_byte = std::byte{0xA5};

// The staging ring with guard bytes after it: a copy outside the ring would change them.
std::vector<std::byte> ring_with_guard(const StagingPlan& plan) {
    return std::vector<std::byte>(plan.staging_bytes() + guard, guard_byte);
}

bool guard_intact(const std::vector<std::byte>& ring, const StagingPlan& plan) {
    for (std::size_t i = plan.staging_bytes(); i < ring.size(); ++i) {
        if (ring[i] != guard_byte) {
            return false;
        }
    }
    return true;
}

struct Case {
    std::size_t bytes;
    std::size_t chunk;
    std::size_t slots;
    unsigned workers;
};

std::ostream& operator<<(std::ostream& out, const Case& c) {
    return out << c.bytes << " bytes, chunks of " << c.chunk << ", " << c.slots << " slots, "
               << c.workers << " workers";
}

// Many chunks per slot, sizes that are no multiple of the chunk or of a worker's share, one
// chunk, one byte, a single slot.
const std::vector<Case> cases = {
    {4096 * 37 + 123, 4096, 3, 4},
    {4096 * 37 + 123, 4096, 3, 1},
    {4096 * 24, 4096, 2, 3},
    {4096 * 9 + 1, 4096, 1, 2},
    {1000, 4096, 4, 2},
    {1, 4096, 4, 1},
    {65'537, 1000, 5, 7},
};

// ring_upload and ring_download: (target, source, staging, plan, workers, queue).
using Transfer = void (*)(void*, const void*, void*, const StagingPlan&, unsigned, StagingQueue&);

// Runs `transfer` for every case over a FakeDma with these delays, and checks what arrived.
void expect_every_case_arrives(Transfer transfer, microseconds copy_delay,
                               microseconds wait_delay) {
    for (const Case& c : cases) {
        SCOPED_TRACE(testing::Message() << c);
        const StagingPlan plan(c.bytes, c.chunk, c.slots);
        const auto source = pattern(c.bytes);
        auto ring = ring_with_guard(plan);
        std::vector<std::byte> target(c.bytes, std::byte{0});
        FakeDma dma(copy_delay, wait_delay);
        transfer(target.data(), source.data(), ring.data(), plan, c.workers, dma);
        dma.drain();
        EXPECT_EQ(dma.clobbered(), 0U) << "a slot was overwritten before its copy ran";
        EXPECT_EQ(dma.copies(), plan.chunks());
        EXPECT_EQ(dma.foreign_calls(), 0U) << "only the calling thread may queue work";
        EXPECT_TRUE(target == source);
        EXPECT_TRUE(guard_intact(ring, plan));
    }
}

TEST(StagingRing, UploadArrivesWholeAndNeverOverwritesASlotInFlight) {
    // Slow copies: host threads that refill a slot too early clobber it.
    expect_every_case_arrives(kiln::detail::ring_upload, microseconds(300), microseconds(0));
}

TEST(StagingRing, DownloadArrivesWholeAndNeverRefillsASlotBeingRead) {
    // Fast copies and slow readers: a slot refilled before its readers finish shows as wrong data.
    expect_every_case_arrives(kiln::detail::ring_download, microseconds(0), microseconds(300));
}

TEST(StagingRing, AFailedCopyStopsEveryWorkerAndIsRethrown) {
    const StagingPlan plan(4096 * 20, 4096, 2);
    const auto data = pattern(plan.bytes());
    std::vector<std::byte> out(plan.bytes());
    auto ring = ring_with_guard(plan);
    for (const std::size_t at : {0, 1, 5}) {
        FakeDma upload(microseconds(50), microseconds(0));
        upload.fail_copy_at(at);
        EXPECT_THROW(
            kiln::detail::ring_upload(out.data(), data.data(), ring.data(), plan, 4, upload),
            kiln::BackendError)
            << "copy " << at;
        upload.drain();

        FakeDma download(microseconds(0), microseconds(50));
        download.fail_copy_at(at);
        EXPECT_THROW(
            kiln::detail::ring_download(out.data(), data.data(), ring.data(), plan, 4, download),
            kiln::BackendError)
            << "copy " << at;
    }
}

TEST(StagingRing, AFailedWaitOnAWorkerIsRethrown) {
    const StagingPlan plan(4096 * 20, 4096, 2);
    const auto data = pattern(plan.bytes());
    std::vector<std::byte> out(plan.bytes());
    auto ring = ring_with_guard(plan);
    FakeDma upload(microseconds(50), microseconds(0));
    upload.fail_wait_at(3);
    EXPECT_THROW(kiln::detail::ring_upload(out.data(), data.data(), ring.data(), plan, 4, upload),
                 kiln::BackendError);
    upload.drain();

    FakeDma download(microseconds(0), microseconds(50));
    download.fail_wait_at(3);
    EXPECT_THROW(
        kiln::detail::ring_download(out.data(), data.data(), ring.data(), plan, 4, download),
        kiln::BackendError);
}

}  // namespace
