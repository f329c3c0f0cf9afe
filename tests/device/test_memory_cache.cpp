// The compile cache's memory level under a small limit: evicting a binary leaves the modules
// loaded from it alone, so kernel objects made before the eviction, and new ones with the same
// program, still run and give the right values.
#include "core/compile/compile_cache.hpp"
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using kiln::detail::CompileCache;

std::vector<std::int32_t> run(const kiln::ElementwiseKernel& kernel) {
    return kernel({kiln::array(std::vector<std::int32_t>{1, 2, 3})}).get<std::int32_t>();
}

kiln::ElementwiseKernel affine(int offset) {
    return {"int32 x", "int32 y", "y = x * 5 + " + std::to_string(offset),
            "memory_lru_" + std::to_string(offset)};
}

TEST(MemoryCache, KernelsOutliveTheirBinarysEviction) {
    KILN_REQUIRE_DEVICE();
    auto& cache = CompileCache::instance();
    const auto before = cache.memory_usage();
    cache.set_memory_limit(1);  // keeps only the binary stored last
    const auto first = affine(7);
    EXPECT_EQ(run(first), (std::vector<std::int32_t>{12, 17, 22}));
    const auto second = affine(8);
    EXPECT_EQ(run(second), (std::vector<std::int32_t>{13, 18, 23}));
    EXPECT_EQ(cache.memory_usage().entries, 1U);

    EXPECT_EQ(run(first), (std::vector<std::int32_t>{12, 17, 22}));
    EXPECT_EQ(run(affine(7)), (std::vector<std::int32_t>{12, 17, 22}));
    EXPECT_EQ(run(second), (std::vector<std::int32_t>{13, 18, 23}));
    cache.set_memory_limit(before.limit);
}

}  // namespace
