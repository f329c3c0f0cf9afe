// MemoryPool's limit follows CuPy's: 0 bytes (set_limit(0), KILN_GPU_MEMORY_LIMIT=0 or 0%) means
// no limit. Checked over the same composition MemoryPool uses (PoolResource over LimitResource),
// with host memory in place of the device's.
#include "core/env.hpp"
#include "core/memory/pool_limit.hpp"
#include "tests/support/host_resource.hpp"

#include <kiln/error.hpp>
#include <kiln/pool_resource.hpp>
#include <kiln/resource_adaptors.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace {

using kiln::LimitResource;
using kiln::PoolResource;
using kiln::detail::pool_limit_cap;
using kiln::detail::pool_limit_of_cap;
using kiln::detail::env::parse_memory_limit;

constexpr std::size_t total = std::size_t{80} << 30;  // the device memory percentages refer to

// The pool a KILN_GPU_MEMORY_LIMIT value gives, over host memory.
struct PoolUnder {
    explicit PoolUnder(const std::string& text)
        : limit(host, pool_limit_cap(parse_memory_limit("KILN_GPU_MEMORY_LIMIT", text, total))) {}

    kiln::test::CountingHostResource host;
    kiln::test::RecordingStreamOrder order;
    LimitResource limit;
    PoolResource pool{limit, order};
};

TEST(PoolLimit, ZeroFromTheEnvironmentMeansNoLimit) {
    for (const char* text : {"0", "0%", "0.0%"}) {
        PoolUnder under(text);
        EXPECT_EQ(under.limit.limit(), LimitResource::no_limit) << text;
        EXPECT_EQ(pool_limit_of_cap(under.limit.limit()), 0U) << "get_limit() of " << text;
        void* ptr = under.pool.allocate(std::size_t{1} << 20);
        EXPECT_NE(ptr, nullptr) << text;
        under.pool.deallocate(ptr, std::size_t{1} << 20);
    }
}

TEST(PoolLimit, APositiveLimitStillCaps) {
    PoolUnder under("4096");
    EXPECT_EQ(pool_limit_of_cap(under.limit.limit()), 4096U);
    void* ptr = under.pool.allocate(4096);
    try {
        (void)under.pool.allocate(512);
        ADD_FAILURE() << "went past a 4096-byte limit";
    } catch (const kiln::OutOfMemory& e) {
        EXPECT_EQ(e.limit(), 4096U);
        EXPECT_EQ(e.used(), 4096U);
    }
    under.pool.deallocate(ptr, 4096);

    PoolUnder share("1%");
    EXPECT_EQ(pool_limit_of_cap(share.limit.limit()), total / 100);
}

// What MemoryPool::set_limit and get_limit do with a value, and that setting what get_limit
// returned leaves the limit as it was.
TEST(PoolLimit, SetAndGetRoundTrip) {
    EXPECT_EQ(pool_limit_cap(0), LimitResource::no_limit);
    EXPECT_EQ(pool_limit_cap(1), 1U);
    EXPECT_EQ(pool_limit_cap(total), total);
    for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{512}, total}) {
        EXPECT_EQ(pool_limit_of_cap(pool_limit_cap(bytes)), bytes);
    }
    EXPECT_EQ(pool_limit_of_cap(LimitResource::no_limit), 0U);

    // Lifting a limit with 0 lets a refused allocation through.
    PoolUnder under("1024");
    EXPECT_THROW((void)under.pool.allocate(2048), kiln::OutOfMemory);
    under.limit.set_limit(pool_limit_cap(0));
    void* ptr = under.pool.allocate(2048);
    EXPECT_NE(ptr, nullptr);
    under.pool.deallocate(ptr, 2048);
}

// The generic adaptor keeps 0 as a cap that allows nothing (resource_adaptors.hpp says why).
TEST(PoolLimit, TheGenericAdaptorKeepsZeroAsZero) {
    kiln::test::CountingHostResource host;
    LimitResource limit(host, 0);
    EXPECT_THROW((void)limit.allocate(1), kiln::OutOfMemory);
    EXPECT_EQ(host.allocations(), 0U);
}

}  // namespace
