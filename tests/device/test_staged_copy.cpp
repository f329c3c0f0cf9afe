// Host transfers through the pinned staging ring on a real GPU. A 4 GiB upload and download pin at
// most 64 MiB of the pinned pool, and every byte arrives: the data is a pattern that differs
// between offsets, written or checked on the device by a kernel (not by the transfer in the other
// direction), so a chunk dropped, misplaced or taken from a stale slot shows. Small sizes, sizes
// that are no multiple of the chunk, and strided views too.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <span>
#include <thread>
#include <vector>

namespace {

using kiln::Dim3;
using kiln::ndarray;

constexpr std::size_t MiB = std::size_t{1} << 20;
constexpr std::size_t chunk = 8 * MiB;  // StagingPlan's chunk: boundaries checked by name below
constexpr std::size_t ring_cap = 64 * MiB;

// Byte i of every transfer here; the same formula as the kernels'.
std::uint8_t pattern(std::uint64_t i) {
    return static_cast<std::uint8_t>((static_cast<std::uint32_t>(i * 2654435761ULL) >> 24) ^
                                     (i >> 32));
}

constexpr const char* pattern_source = R"(
__device__ unsigned char pattern(unsigned long long i) {
    return (unsigned char)(((unsigned int)(i * 2654435761ULL) >> 24) ^ (i >> 32));
}
extern "C" __global__ void fill_pattern(unsigned char* out, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        out[i] = pattern(i);
    }
}
extern "C" __global__ void count_mismatches(const unsigned char* x, unsigned long long n,
                                            unsigned long long* bad, unsigned long long* first) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        if (x[i] != pattern(i)) {
            atomicAdd(bad, 1ULL);
            atomicMin(first, i);
        }
    }
}
)";

// Runs f(begin, end) over [0, n) on several threads.
template <class F>
void parallel_for(std::size_t n, F f) {
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1U, 16U);
    std::vector<std::jthread> workers;
    for (unsigned t = 0; t < threads; ++t) {
        workers.emplace_back([=] { f(n * t / threads, n * (t + 1) / threads); });
    }
}

std::vector<std::uint8_t> host_pattern(std::size_t n) {
    std::vector<std::uint8_t> out(n);
    parallel_for(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            out[i] = pattern(i);
        }
    });
    return out;
}

struct Mismatches {
    std::uint64_t count = 0;
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
};

class PatternKernels {
public:
    PatternKernels()
        : module_(pattern_source),
          fill_(module_.get_function("fill_pattern")),
          count_(module_.get_function("count_mismatches")) {}

    void fill(ndarray& a) const {
        fill_(Dim3{1024}, Dim3{256}, {a, static_cast<std::uint64_t>(a.size())});
    }
    // Elements of `a` that differ from the pattern, counted on the device.
    Mismatches check(const ndarray& a) const {
        ndarray bad = kiln::zeros({1}, kiln::uint64);
        ndarray first = kiln::full({1}, std::numeric_limits<std::uint64_t>::max());
        count_(Dim3{1024}, Dim3{256}, {a, static_cast<std::uint64_t>(a.size()), bad, first});
        return {bad.get<std::uint64_t>()[0], first.get<std::uint64_t>()[0]};
    }

private:
    kiln::RawModule module_;
    kiln::RawKernel fill_;
    kiln::RawKernel count_;
};

// Host bytes that differ from the pattern, and the first of them.
Mismatches check_host(std::span<const std::uint8_t> data) {
    std::vector<Mismatches> parts(16);
    std::atomic<unsigned> next{0};
    parallel_for(data.size(), [&](std::size_t begin, std::size_t end) {
        Mismatches& mine = parts[next++];
        for (std::size_t i = begin; i < end; ++i) {
            if (data[i] != pattern(i)) {
                mine.first = std::min<std::uint64_t>(mine.first, i);
                ++mine.count;
            }
        }
    });
    Mismatches all;
    for (const auto& part : parts) {
        all.count += part.count;
        all.first = std::min(all.first, part.first);
    }
    return all;
}

// The offsets where chunks meet (each side), the ring's wrap and the last byte.
std::vector<std::size_t> seams(std::size_t n) {
    std::vector<std::size_t> out = {0, n - 1};
    for (std::size_t at = chunk; at < n; at += (at < 4 * ring_cap ? chunk : 37 * chunk)) {
        out.push_back(at - 1);
        out.push_back(at);
    }
    return out;
}

// The pinned pool's growth over a transfer: its total never shrinks unless blocks are freed, so
// after the transfer it is the transfer's peak.
class PinnedGrowth {
public:
    PinnedGrowth() {
        kiln::Device().synchronize();
        pool_.free_all_blocks();
        before_ = pool_.total_bytes();
    }
    [[nodiscard]] std::size_t bytes() const { return pool_.total_bytes() - before_; }

private:
    kiln::PinnedMemoryPool& pool_ = kiln::get_default_pinned_memory_pool();
    std::size_t before_ = 0;
};

// 4 GiB and a tail of 12,345 bytes: 513 chunks through 8 slots, the last one partial.
constexpr std::size_t big = (std::size_t{4} << 30) + 12'345;

void require_memory_for_big() {
    const std::size_t total = kiln::Device().properties().total_memory;
    if (total < big + (std::size_t{2} << 30)) {
        GTEST_SKIP() << "the device has " << total << " bytes; this test needs 6 GiB";
    }
}

TEST(StagedCopy, FourGiBUploadPinsAtMost64MiBAndArrivesWhole) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_ON_HOST(kiln::test::four_gib);
    require_memory_for_big();
    const PatternKernels kernels;
    std::vector<std::uint8_t> host = host_pattern(big);
    ndarray a = kiln::zeros({static_cast<std::int64_t>(big)}, kiln::uint8);

    const PinnedGrowth synchronous;
    a.set(std::span<const std::uint8_t>(host));
    EXPECT_LE(synchronous.bytes(), ring_cap);
    const Mismatches sync_result = kernels.check(a);
    EXPECT_EQ(sync_result.count, 0U) << "first at byte " << sync_result.first;

    // Asynchronous: the source may be overwritten as soon as set returns.
    a.fill(0);
    kiln::Device().synchronize();
    kiln::Stream stream(true);
    const PinnedGrowth asynchronous;
    a.set(std::span<const std::uint8_t>(host), stream);
    std::fill(host.begin(), host.end(), std::uint8_t{0});
    stream.synchronize();
    EXPECT_LE(asynchronous.bytes(), ring_cap);
    const Mismatches async_result = kernels.check(a);
    EXPECT_EQ(async_result.count, 0U) << "first at byte " << async_result.first;
}

TEST(StagedCopy, FourGiBDownloadPinsAtMost64MiBAndArrivesWhole) {
    KILN_REQUIRE_DEVICE();
    KILN_SKIP_ON_HOST(kiln::test::four_gib);
    require_memory_for_big();
    const PatternKernels kernels;
    ndarray a = kiln::empty({static_cast<std::int64_t>(big)}, kiln::uint8);
    kernels.fill(a);
    std::vector<std::uint8_t> host(big, 0);

    const PinnedGrowth growth;
    a.get(std::span<std::uint8_t>(host));
    EXPECT_LE(growth.bytes(), ring_cap);
    for (const std::size_t at : seams(big)) {
        ASSERT_EQ(host[at], pattern(at)) << "byte " << at;
    }
    const Mismatches result = check_host(host);
    EXPECT_EQ(result.count, 0U) << "first at byte " << result.first;
}

// Below, at and past the chunk and the ring, and sizes that are no multiple of either.
TEST(StagedCopy, SmallAndOddSizesArriveWhole) {
    KILN_REQUIRE_DEVICE();
    const PatternKernels kernels;
    for (const std::size_t n :
         {std::size_t{1}, std::size_t{63}, std::size_t{4097}, chunk - 1, chunk, chunk + 1,
          16 * MiB + 7, ring_cap - 1, ring_cap, ring_cap + 1, ring_cap + 3 * chunk + 17}) {
        SCOPED_TRACE(n);
        // The pinned bytes one transfer may add: its ring, in the pool's 512-byte granules.
        const std::size_t ring = (std::min(n, ring_cap) + 511) / 512 * 512;
        const auto host = host_pattern(n);
        ndarray a = kiln::zeros({static_cast<std::int64_t>(n)}, kiln::uint8);
        const PinnedGrowth upload;
        a.set(std::span<const std::uint8_t>(host));
        EXPECT_LE(upload.bytes(), ring) << "pinned by the upload";
        const Mismatches up = kernels.check(a);
        EXPECT_EQ(up.count, 0U) << "upload, first at byte " << up.first;

        ndarray b = kiln::empty({static_cast<std::int64_t>(n)}, kiln::uint8);
        kernels.fill(b);
        std::vector<std::uint8_t> back(n, 0);
        const PinnedGrowth download;
        b.get(std::span<std::uint8_t>(back));
        EXPECT_LE(download.bytes(), ring) << "pinned by the download";
        const Mismatches down = check_host(back);
        EXPECT_EQ(down.count, 0U) << "download, first at byte " << down.first;
    }
}

// set and get of a strided view go through a contiguous copy on the device and the same ring.
TEST(StagedCopy, StridedViewsOfManyChunks) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t rows = 1001;
    const std::int64_t cols = 9001;  // the view holds 9,010,001 bytes: two chunks, a partial one
    ndarray base = kiln::full({rows, 3 * cols}, std::uint8_t{0xEE});
    ndarray view = base[{kiln::Slice{}, kiln::Slice{1, std::nullopt, 3}}];
    const auto n = static_cast<std::size_t>(rows * cols);
    const auto host = host_pattern(n);
    view.set(std::span<const std::uint8_t>(host));

    const auto whole = base.get<std::uint8_t>();
    std::size_t wrong = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < 3 * cols; ++c) {
            const auto got = whole[static_cast<std::size_t>(r * 3 * cols + c)];
            const auto want = c % 3 == 1 ? pattern(static_cast<std::size_t>(r * cols + c / 3))
                                         : std::uint8_t{0xEE};
            wrong += got == want ? 0 : 1;
        }
    }
    EXPECT_EQ(wrong, 0U);

    std::vector<std::uint8_t> back(n, 0);
    view.get(std::span<std::uint8_t>(back));
    const Mismatches down = check_host(back);
    EXPECT_EQ(down.count, 0U) << "first at byte " << down.first;
}

}  // namespace
