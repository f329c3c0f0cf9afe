#include "tests/support/host_resource.hpp"

#include <kiln/error.hpp>
#include <kiln/pool_resource.hpp>
#include <kiln/resource_adaptors.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using kiln::LimitResource;
using kiln::LoggingResource;
using kiln::Statistics;
using kiln::StatisticsResource;
using kiln::test::CountingHostResource;
using kiln::test::fake_stream;
using kiln::test::RecordingStreamOrder;

std::string text_of(const void* ptr) {
    std::ostringstream text;
    text << ptr;
    return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

void expect_statistics(const Statistics& s, std::size_t current, std::size_t peak,
                       std::size_t total_allocations, std::size_t current_allocations) {
    EXPECT_EQ(s.current_bytes, current);
    EXPECT_EQ(s.peak_bytes, peak);
    EXPECT_EQ(s.total_allocations, total_allocations);
    EXPECT_EQ(s.current_allocations, current_allocations);
}

TEST(StatisticsResource, CountsBytesPeakAndAllocations) {
    CountingHostResource host;
    StatisticsResource stats(host);
    EXPECT_EQ(&stats.upstream(), &host);
    expect_statistics(stats.statistics(), 0, 0, 0, 0);

    void* a = stats.allocate(100);
    void* b = stats.allocate(300);
    expect_statistics(stats.statistics(), 400, 400, 2, 2);
    stats.deallocate(a, 100);
    expect_statistics(stats.statistics(), 300, 400, 2, 1);
    void* c = stats.allocate(50);
    expect_statistics(stats.statistics(), 350, 400, 3, 2);

    stats.reset_peak();
    expect_statistics(stats.statistics(), 350, 350, 3, 2);
    stats.deallocate(b, 300);
    stats.deallocate(c, 50);
    expect_statistics(stats.statistics(), 0, 350, 3, 0);
    EXPECT_EQ(host.live_bytes(), 0U);
}

TEST(StatisticsResource, ZeroBytesAndNullAreNotCounted) {
    CountingHostResource host;
    StatisticsResource stats(host);
    EXPECT_EQ(stats.allocate(0), nullptr);
    stats.deallocate(nullptr, 64);
    expect_statistics(stats.statistics(), 0, 0, 0, 0);
}

TEST(StatisticsResource, FailuresLeaveTheCountersAlone) {
    CountingHostResource host;
    RecordingStreamOrder order;
    kiln::PoolResource pool(host, order);
    StatisticsResource stats(pool);
    void* ptr = stats.allocate(400);
    EXPECT_THROW(stats.deallocate(ptr, 512), kiln::Error);
    expect_statistics(stats.statistics(), 400, 400, 1, 1);

    LimitResource limit(host, 1024);
    StatisticsResource limited(limit);
    EXPECT_THROW((void)limited.allocate(2048), kiln::OutOfMemory);
    expect_statistics(limited.statistics(), 0, 0, 0, 0);
    stats.deallocate(ptr, 400);
}

// Four threads each allocate and free 1000 times; the totals are exact.
TEST(StatisticsResource, CountsExactlyAcrossThreads) {
    CountingHostResource host;
    StatisticsResource stats(host);
    std::vector<std::thread> workers;
    workers.reserve(4);
    for (int t = 0; t < 4; ++t) {
        workers.emplace_back([&stats] {
            for (int i = 0; i < 1000; ++i) {
                void* ptr = stats.allocate(64);
                stats.deallocate(ptr, 64);
            }
        });
    }
    for (auto& worker : workers) {
        worker.join();
    }
    const Statistics s = stats.statistics();
    EXPECT_EQ(s.total_allocations, 4000U);
    EXPECT_EQ(s.current_allocations, 0U);
    EXPECT_EQ(s.current_bytes, 0U);
    EXPECT_GE(s.peak_bytes, 64U);
    EXPECT_LE(s.peak_bytes, 4U * 64U);
}

TEST(LimitResource, NoLimitIsTheDefault) {
    CountingHostResource host;
    LimitResource limit(host);
    EXPECT_EQ(limit.limit(), std::numeric_limits<std::size_t>::max());
    EXPECT_EQ(limit.limit(), LimitResource::no_limit);
    void* ptr = limit.allocate(1 << 20);
    EXPECT_EQ(limit.used(), 1U << 20U);
    limit.deallocate(ptr, 1 << 20);
    EXPECT_EQ(limit.used(), 0U);
}

TEST(LimitResource, RefusesPastTheLimitWithTheFigures) {
    CountingHostResource host;
    LimitResource limit(host, 1000);
    void* a = limit.allocate(600);
    void* b = limit.allocate(400);  // exactly at the limit
    EXPECT_EQ(limit.used(), 1000U);
    try {
        (void)limit.allocate(1);
        ADD_FAILURE() << "went past the limit";
    } catch (const kiln::OutOfMemory& e) {
        EXPECT_EQ(e.requested(), 1U);
        EXPECT_EQ(e.used(), 1000U);
        EXPECT_EQ(e.limit(), 1000U);
    }
    EXPECT_EQ(host.allocations(), 2U);
    limit.deallocate(a, 600);
    EXPECT_EQ(limit.used(), 400U);
    void* c = limit.allocate(600);
    limit.deallocate(b, 400);
    limit.deallocate(c, 600);
    EXPECT_EQ(limit.used(), 0U);
}

TEST(LimitResource, LoweringTheLimitRefusesUntilEnoughIsFreed) {
    CountingHostResource host;
    LimitResource limit(host);
    void* ptr = limit.allocate(4096);
    limit.set_limit(1024);
    EXPECT_EQ(limit.limit(), 1024U);
    EXPECT_THROW((void)limit.allocate(1), kiln::OutOfMemory);
    limit.deallocate(ptr, 4096);
    void* small = limit.allocate(1024);
    EXPECT_EQ(limit.used(), 1024U);
    limit.deallocate(small, 1024);
}

TEST(LimitResource, HugeRequestDoesNotWrapAround) {
    CountingHostResource host;
    LimitResource limit(host, 4096);
    void* ptr = limit.allocate(1024);
    EXPECT_THROW((void)limit.allocate(std::numeric_limits<std::size_t>::max()), kiln::OutOfMemory);
    EXPECT_EQ(limit.used(), 1024U);
    limit.deallocate(ptr, 1024);
}

// An upstream failure gives the reserved bytes back.
TEST(LimitResource, UpstreamFailureReleasesTheReservation) {
    CountingHostResource small(1024);
    LimitResource limit(small, 8192);
    EXPECT_THROW((void)limit.allocate(2048), kiln::OutOfMemory);
    EXPECT_EQ(limit.used(), 0U);
}

TEST(LoggingResource, WritesOneLinePerCall) {
    CountingHostResource host;
    std::ostringstream log;
    LoggingResource logging(host, log);
    const kiln::StreamView stream = fake_stream(3);
    void* a = logging.allocate(400);
    void* b = logging.allocate(64, stream);
    logging.deallocate(a, 400);
    logging.deallocate(b, 64, stream);
    EXPECT_EQ(logging.allocate(0), nullptr);

    const std::vector<std::string> expected = {
        "allocate ptr=" + text_of(a) + " bytes=400 stream=default",
        "allocate ptr=" + text_of(b) + " bytes=64 stream=" + text_of(stream.native()),
        "deallocate ptr=" + text_of(a) + " bytes=400 stream=default",
        "deallocate ptr=" + text_of(b) + " bytes=64 stream=" + text_of(stream.native()),
    };
    EXPECT_EQ(lines_of(log.str()), expected);
}

TEST(LoggingResource, LogsFailedAllocations) {
    CountingHostResource host;
    LimitResource limit(host, 100);
    std::ostringstream log;
    LoggingResource logging(limit, log);
    EXPECT_THROW((void)logging.allocate(200), kiln::OutOfMemory);
    EXPECT_EQ(log.str(), "allocate failed bytes=200 stream=default\n");
}

// Lines from several threads arrive whole.
TEST(LoggingResource, LinesStayWholeAcrossThreads) {
    CountingHostResource host;
    std::ostringstream log;
    LoggingResource logging(host, log);
    std::vector<std::thread> workers;
    workers.reserve(4);
    for (int t = 0; t < 4; ++t) {
        workers.emplace_back([&logging] {
            for (int i = 0; i < 200; ++i) {
                void* ptr = logging.allocate(32);
                logging.deallocate(ptr, 32);
            }
        });
    }
    for (auto& worker : workers) {
        worker.join();
    }
    const std::vector<std::string> lines = lines_of(log.str());
    ASSERT_EQ(lines.size(), 1600U);
    for (const std::string& line : lines) {
        const bool whole =
            (line.starts_with("allocate ptr=") || line.starts_with("deallocate ptr=")) &&
            line.ends_with(" bytes=32 stream=default");
        EXPECT_TRUE(whole) << line;
    }
}

// The adaptors compose: statistics over a pool over a limit over the host.
TEST(Adaptors, ComposeAroundAPool) {
    CountingHostResource host;
    LimitResource limit(host, 4096);
    RecordingStreamOrder order;
    kiln::PoolResource pool(limit, order);
    StatisticsResource stats(pool);
    void* ptr = stats.allocate(400);
    expect_statistics(stats.statistics(), 400, 400, 1, 1);
    EXPECT_EQ(pool.used_bytes(), 512U);
    EXPECT_EQ(limit.used(), 512U);
    stats.deallocate(ptr, 400);
    EXPECT_EQ(limit.used(), 512U);  // cached by the pool
    pool.free_all_blocks();
    EXPECT_EQ(limit.used(), 0U);
    EXPECT_EQ(host.live_bytes(), 0U);
}

}  // namespace
