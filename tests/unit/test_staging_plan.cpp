// The cut of a staged transfer: chunks tile it, take turns in a ring that pins at most 64 MiB
// whatever the size, and each chunk's shares tile it for the host threads.
#include "core/array/staging_plan.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace {

using kiln::detail::ByteRange;
using kiln::detail::share;
using kiln::detail::StagingPlan;

constexpr std::size_t MiB = std::size_t{1} << 20;
constexpr std::size_t chunk = StagingPlan::default_chunk_bytes;
constexpr std::size_t ring = StagingPlan::default_chunk_bytes * StagingPlan::default_slots;

// Checks every invariant the ring relies on, for one plan.
void expect_valid(const StagingPlan& plan, std::size_t chunk_bytes) {
    SCOPED_TRACE(plan.bytes());
    ASSERT_GE(plan.chunks(), (plan.bytes() + chunk_bytes - 1) / chunk_bytes);
    std::size_t covered = 0;
    for (std::size_t k = 0; k < plan.chunks(); ++k) {
        const auto c = plan.chunk(k);
        ASSERT_EQ(c.range.begin, covered)
            << "chunk " << k << " must start where " << k - 1 << " ended";
        ASSERT_GT(c.range.size(), 0U);
        ASSERT_LE(c.range.size(), chunk_bytes);
        ASSERT_EQ(c.slot, k % plan.slots());
        ASSERT_EQ(c.staging, c.slot * chunk_bytes);
        ASSERT_LE(c.staging + c.range.size(), plan.staging_bytes()) << "chunk " << k;
        covered = c.range.end;
    }
    EXPECT_EQ(covered, plan.bytes());
}

TEST(StagingPlan, ATransferOfAnySizePinsAtMost64MiB) {
    for (const std::size_t bytes :
         {std::size_t{1}, std::size_t{4095}, chunk - 1, chunk, chunk + 1, ring - 1, ring, ring + 1,
          ring + chunk / 2, std::size_t{4} << 30, std::size_t{40'000'000'000}}) {
        const StagingPlan plan(bytes);
        EXPECT_LE(plan.staging_bytes(), 64 * MiB) << bytes;
        EXPECT_EQ(plan.staging_bytes(), std::min(bytes, ring)) << bytes;
        EXPECT_LE(plan.slots(), StagingPlan::default_slots);
        expect_valid(plan, chunk);
    }
}

TEST(StagingPlan, KnownCuts) {
    // Ramped: 2, 4 and 8 MiB first, then 16 MiB chunks, a 4 MiB rest, then 8, 4 and 2 MiB.
    const StagingPlan four_gib(std::size_t{4} << 30);
    EXPECT_EQ(four_gib.chunks(), 3U + 255U + 3U);
    EXPECT_EQ(four_gib.slots(), 4U);
    EXPECT_EQ(four_gib.staging_bytes(), 64 * MiB);
    const std::vector<std::size_t> head = {2 * MiB, 4 * MiB, 8 * MiB, chunk};
    const std::vector<std::size_t> tail = {4 * MiB, 8 * MiB, 4 * MiB, 2 * MiB};
    for (std::size_t k = 0; k < head.size(); ++k) {
        EXPECT_EQ(four_gib.chunk(k).range.size(), head[k]) << "chunk " << k;
        EXPECT_EQ(four_gib.chunk(four_gib.chunks() - tail.size() + k).range.size(), tail[k])
            << "chunk " << four_gib.chunks() - tail.size() + k;
    }
    EXPECT_EQ(four_gib.chunk(4).slot, 0U) << "chunk 4 reuses chunk 0's slot";
    EXPECT_EQ(four_gib.chunk(4).staging, 0U);
    EXPECT_EQ(four_gib.chunk(260).range.end, std::size_t{4} << 30);
    EXPECT_EQ(four_gib.chunk(260).staging, 0U);

    // A transfer smaller than the ring pins only itself, and is not ramped.
    const StagingPlan twenty_mib(20 * MiB);
    EXPECT_EQ(twenty_mib.chunks(), 2U);
    EXPECT_EQ(twenty_mib.slots(), 2U);
    EXPECT_EQ(twenty_mib.staging_bytes(), 20 * MiB);
    EXPECT_EQ(twenty_mib.chunk(1).range.begin, 16 * MiB);
    EXPECT_EQ(twenty_mib.chunk(1).range.end, 20 * MiB);
    EXPECT_EQ(twenty_mib.chunk(1).staging, 16 * MiB);

    // The rest of a transfer that is no multiple of the chunk comes just before the ramp down.
    const StagingPlan odd(ring + 3 * chunk + 17);
    EXPECT_EQ(odd.chunks(), 3U + 6U + 3U);
    EXPECT_EQ(odd.chunk(8).range.size(), 4 * MiB + 17);
    EXPECT_EQ(odd.chunk(11).range.size(), 2 * MiB);
    EXPECT_EQ(odd.chunk(11).slot, 3U);
    EXPECT_EQ(odd.staging_bytes(), ring);

    // One byte short of the ring: plain 16 MiB chunks.
    const StagingPlan short_of_ring(ring - 1);
    EXPECT_EQ(short_of_ring.chunks(), 4U);
    EXPECT_EQ(short_of_ring.chunk(0).range.size(), chunk);
}

TEST(StagingPlan, SmallChunksAndRings) {
    for (const std::size_t slots : {1, 2, 3, 5}) {
        for (const std::size_t bytes : {1, 99, 100, 101, 499, 500, 501, 12'345}) {
            const StagingPlan plan(bytes, 100, slots);
            EXPECT_EQ(plan.slots(), std::min(slots, (bytes + 99) / 100));
            EXPECT_EQ(plan.staging_bytes(), std::min<std::size_t>(bytes, slots * 100));
            expect_valid(plan, 100);
        }
    }
    const StagingPlan empty(0);
    EXPECT_EQ(empty.chunks(), 0U);
    EXPECT_EQ(empty.staging_bytes(), 0U);
}

TEST(StagingPlan, SharesTileAChunkInCacheLines) {
    for (const ByteRange range : {ByteRange{0, 1}, ByteRange{0, 64}, ByteRange{128, 8 * MiB},
                                  ByteRange{8 * MiB, 8 * MiB + 1'000'003}, ByteRange{5, 5}}) {
        for (const unsigned workers : {1U, 2U, 3U, 7U, 8U}) {
            SCOPED_TRACE(testing::Message()
                         << "[" << range.begin << ", " << range.end << ") over " << workers);
            std::size_t at = range.begin;
            for (unsigned w = 0; w < workers; ++w) {
                const ByteRange mine = share(range, w, workers);
                EXPECT_EQ(mine.begin, at) << "worker " << w;
                EXPECT_LE(mine.begin, mine.end);
                if (mine.begin != range.end) {
                    EXPECT_EQ((mine.begin - range.begin) % 64, 0U) << "worker " << w;
                }
                at = mine.end;
            }
            EXPECT_EQ(at, range.end);
        }
    }
    // Eight workers on an 8 MiB range take 1 MiB each.
    EXPECT_EQ(share({0, 8 * MiB}, 3, 8).begin, 3 * MiB);
    EXPECT_EQ(share({0, 8 * MiB}, 3, 8).size(), MiB);
}

TEST(StagingPlan, WorkersForSmallAndLargeTransfers) {
    EXPECT_EQ(kiln::detail::staging_workers(1), 1U);
    EXPECT_EQ(kiln::detail::staging_workers(16 * MiB - 1), 1U);
    EXPECT_GE(kiln::detail::staging_workers(16 * MiB), 1U);
    EXPECT_LE(kiln::detail::staging_workers(std::size_t{4} << 30), 8U);
}

}  // namespace
