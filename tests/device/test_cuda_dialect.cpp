// Users' CUDA sources (RawKernel) on every backend, the host's fibers included: shared memory is
// one copy per block, the barrier's count/and/or forms, the warp functions' exact results and
// atomics under contention, each against a host computation; on the host, a barrier some threads
// never reach is an error rather than a hang.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using kiln::Dim3;
using kiln::ndarray;

// Every block fills its static and dynamic shared memory with its own values, waits, and reads
// its neighbours' entries: a block that saw another's copy would read another block's values.
TEST(CudaDialect, SharedMemoryIsOneCopyPerBlock) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel kernel(R"(
extern "C" __global__ void neighbours(int* out) {
    __shared__ int tile[64];
    extern __shared__ long long dynamic[];
    const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned n = blockDim.x * blockDim.y * blockDim.z;
    const unsigned block = blockIdx.x + gridDim.x * blockIdx.y;
    tile[t] = (int)(block * 1000 + t);
    dynamic[t] = -(long long)(block * 1000 + t);
    __syncthreads();
    out[2 * (block * n + t)] = tile[(t + 1) % n];
    out[2 * (block * n + t) + 1] = (int)dynamic[(t + n - 1) % n];
}
)",
                                 "neighbours");
    const Dim3 grid{16, 3};
    const Dim3 block{8, 4, 2};
    const unsigned n = 64;
    const unsigned blocks = grid.x * grid.y;
    ndarray out = kiln::zeros({static_cast<std::int64_t>(2 * blocks * n)}, kiln::int32);
    kernel(grid, block, {out}, {.shared_mem = n * sizeof(long long)});
    const auto got = out.get<std::int32_t>();
    std::vector<std::int32_t> want(got.size());
    for (unsigned b = 0; b < blocks; ++b) {
        for (unsigned t = 0; t < n; ++t) {
            want[2 * (b * n + t)] = static_cast<std::int32_t>(b * 1000 + (t + 1) % n);
            want[2 * (b * n + t) + 1] = -static_cast<std::int32_t>(b * 1000 + (t + n - 1) % n);
        }
    }
    EXPECT_EQ(got, want);
}

TEST(CudaDialect, SyncthreadsCountAndOr) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel kernel(R"(
__noinline__ __device__ int divides(unsigned x, int d) { return x % d == 0; }
extern "C" __global__ void votes(const int* divisor, int* out) {
    const int d = divisor[blockIdx.x];
    const int p = divides(threadIdx.x, d);
    const int count = __syncthreads_count(p);
    const int all = __syncthreads_and(p);
    const int any = __syncthreads_or(threadIdx.x == (unsigned)d);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = count;
        out[3 * blockIdx.x + 1] = all;
        out[3 * blockIdx.x + 2] = any;
    }
}
)",
                                 "votes");
    const std::vector<std::int32_t> divisors{1, 2, 3, 7, 100, 200};
    const int threads = 96;
    ndarray out = kiln::zeros({static_cast<std::int64_t>(3 * divisors.size())}, kiln::int32);
    kernel(Dim3{static_cast<unsigned>(divisors.size())}, Dim3{threads},
           {kiln::array(divisors), out});
    std::vector<std::int32_t> want;
    for (const int d : divisors) {
        int count = 0;
        for (int t = 0; t < threads; ++t) {
            count += t % d == 0 ? 1 : 0;
        }
        want.insert(want.end(), {count, count == threads ? 1 : 0, d < threads ? 1 : 0});
    }
    EXPECT_EQ(out.get<std::int32_t>(), want);
}

// The value of thread i in the warp test: distinct, with a pattern that no shuffle maps to itself.
std::int32_t warp_value(int i) {
    return (i * 37 + 11) % 101;
}

TEST(CudaDialect, WarpFunctionsGiveExactResults) {
    KILN_REQUIRE_DEVICE();
    if (kiln::test::is_amd()) {
        GTEST_SKIP() << "HIP's warp functions on AMD differ: a wavefront of 64, shuffles without "
                        "masks";
    }
    const kiln::RawKernel kernel(R"(
extern "C" __global__ void warps(const int* in, int* out, double* doubles) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % 32;
    const unsigned all = 0xffffffffu;
    const int x = in[i];
    int* o = out + 12 * i;
    o[0] = __shfl_sync(all, x, (lane * 7) % 32);
    o[1] = __shfl_up_sync(all, x, 3);
    o[2] = __shfl_down_sync(all, x, 5);
    o[3] = __shfl_xor_sync(all, x, 9);
    o[4] = __shfl_sync(all, x, 3, 8);
    o[5] = __shfl_down_sync(all, x, 4, 16);
    o[6] = (int)__ballot_sync(all, x % 3 == 0);
    o[7] = __any_sync(all, x == 11);
    o[8] = __all_sync(all, x >= 0) + 2 * __all_sync(all, x > 50);
    o[9] = (int)__activemask();
    o[10] = (int)__match_any_sync(all, x % 4);
    int total = x;
    for (int offset = 16; offset > 0; offset /= 2) total += __shfl_xor_sync(all, total, offset);
    o[11] = total;
    doubles[i] = __shfl_down_sync(all, x * 0.5, 1);
}
)",
                                 "warps");
    const int threads = 256;
    std::vector<std::int32_t> in(threads);
    for (int i = 0; i < threads; ++i) {
        in[static_cast<std::size_t>(i)] = warp_value(i);
    }
    ndarray out = kiln::zeros({12 * threads}, kiln::int32);
    ndarray doubles = kiln::zeros({threads}, kiln::float64);
    kernel(Dim3{2}, Dim3{128}, {kiln::array(in), out, doubles});
    const auto got = out.get<std::int32_t>();
    const auto got_doubles = doubles.get<double>();
    for (int i = 0; i < threads; ++i) {
        const int base = i / 32 * 32;
        const int lane = i % 32;
        const auto x = [&](int l) { return in[static_cast<std::size_t>(base + l)]; };
        unsigned ballot = 0;
        unsigned same = 0;
        int total = 0;
        bool any = false;
        bool big = true;
        for (int l = 0; l < 32; ++l) {
            ballot |= x(l) % 3 == 0 ? 1U << l : 0U;
            same |= x(l) % 4 == x(lane) % 4 ? 1U << l : 0U;
            total += x(l);
            any = any || x(l) == 11;
            big = big && x(l) > 50;
        }
        const std::vector<std::int32_t> want{x(lane * 7 % 32),
                                             lane >= 3 ? x(lane - 3) : x(lane),
                                             lane + 5 < 32 ? x(lane + 5) : x(lane),
                                             x(lane ^ 9),
                                             x(lane / 8 * 8 + 3),
                                             lane % 16 + 4 < 16 ? x(lane + 4) : x(lane),
                                             static_cast<std::int32_t>(ballot),
                                             any ? 1 : 0,
                                             1 + (big ? 2 : 0),
                                             -1,
                                             static_cast<std::int32_t>(same),
                                             total};
        const std::vector<std::int32_t> row(got.begin() + 12 * i, got.begin() + 12 * (i + 1));
        EXPECT_EQ(row, want) << "thread " << i;
        EXPECT_EQ(got_doubles[static_cast<std::size_t>(i)],
                  0.5 * (lane < 31 ? x(lane + 1) : x(lane)))
            << "thread " << i;
    }
}

TEST(CudaDialect, AtomicsUnderContention) {
    KILN_REQUIRE_DEVICE();
    const kiln::RawKernel kernel(R"(
extern "C" __global__ void contend(int* ints, unsigned* uints, unsigned long long* counts,
                                   float* f, double* d) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&ints[0], 1);
    atomicSub(&ints[1], 2);
    atomicMax(&ints[2], (i * 7919) % 100003);
    atomicMin(&ints[3], -((i * 104729) % 99991));
    atomicInc(&uints[0], 999u);
    atomicDec(&uints[1], 1000u);
    atomicOr(&uints[2], 1u << (i % 32));
    atomicXor(&uints[3], (unsigned)i);
    atomicAnd(&uints[4], ~(1u << (i % 31)));
    atomicAdd(&counts[0], (unsigned long long)i);
    unsigned long long seen = counts[1], assumed;
    do {
        assumed = seen;
        seen = atomicCAS(&counts[1], assumed, assumed + 3);
    } while (seen != assumed);
    atomicExch(&ints[4], 5);
    atomicAdd(f, 1.0f);
    atomicAdd(d, 0.25);
}
)",
                                 "contend");
    const int blocks = 64;
    const int threads = 256;
    const std::int64_t n = blocks * threads;
    ndarray ints = kiln::array(std::vector<std::int32_t>{0, 0, -1, 1, 0});
    ndarray uints = kiln::array(std::vector<std::uint32_t>{0, 0, 0, 0, 0xffffffffU});
    ndarray counts = kiln::zeros({2}, kiln::uint64);
    ndarray f = kiln::zeros({1}, kiln::float32);
    ndarray d = kiln::zeros({1}, kiln::float64);
    kernel(Dim3{blocks}, Dim3{threads}, {ints, uints, counts, f, d});
    std::int32_t max = -1;
    std::int32_t min = 1;
    std::uint32_t xored = 0;
    for (std::int64_t i = 0; i < n; ++i) {
        max = std::max(max, static_cast<std::int32_t>(i * 7919 % 100003));
        min = std::min(min, static_cast<std::int32_t>(-(i * 104729 % 99991)));
        xored ^= static_cast<std::uint32_t>(i);
    }
    // atomicDec from 0 wraps to the limit, then counts down: n steps on a cycle of 1001.
    const auto dec = static_cast<std::uint32_t>((1001 - n % 1001) % 1001);
    EXPECT_EQ(ints.get<std::int32_t>(),
              (std::vector<std::int32_t>{static_cast<std::int32_t>(n),
                                         static_cast<std::int32_t>(-2 * n), max, min, 5}));
    EXPECT_EQ(uints.get<std::uint32_t>(),
              (std::vector<std::uint32_t>{static_cast<std::uint32_t>(n % 1000), dec, 0xffffffffU,
                                          xored, 0x80000000U}));
    EXPECT_EQ(counts.get<std::uint64_t>(),
              (std::vector<std::uint64_t>{static_cast<std::uint64_t>(n * (n - 1) / 2),
                                          static_cast<std::uint64_t>(3 * n)}));
    EXPECT_EQ(f.get<float>()[0], static_cast<float>(n));
    EXPECT_EQ(d.get<double>()[0], 0.25 * static_cast<double>(n));
}

// A block whose threads do not all reach a barrier never finishes on a GPU; on the host it is an
// error naming the block and the threads, at the next synchronization, and the stream goes on.
TEST(CudaDialect, BarrierNotReachedByEveryThreadIsAnError) {
    KILN_REQUIRE_DEVICE();
    if (!kiln::test::is_host()) {
        GTEST_SKIP() << "such a block hangs a GPU; the host backend reports it";
    }
    const kiln::RawModule module(R"(
extern "C" __global__ void half_barrier(int* out) {
    if (threadIdx.x < 16) __syncthreads();
    out[threadIdx.x] = 1;
}
extern "C" __global__ void half_shuffle(int* out) {
    int v = threadIdx.x;
    if (threadIdx.x % 32 < 16) v = __shfl_xor_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}
extern "C" __global__ void fill(int* out) { out[threadIdx.x] = 7; }
)");
    ndarray out = kiln::zeros({64}, kiln::int32);
    const auto failure = [&](const char* name) -> std::string {
        try {
            module.get_function(name)(Dim3{2, 1, 3}, Dim3{64}, {out});
            kiln::Device().synchronize();
        } catch (const kiln::BackendError& e) {
            return e.what();
        }
        return "";
    };
    const std::string barrier = failure("half_barrier");
    EXPECT_NE(barrier.find("half_barrier"), std::string::npos) << barrier;
    EXPECT_NE(barrier.find("wait at __syncthreads"), std::string::npos) << barrier;
    EXPECT_NE(barrier.find("(16, 0, 0) and 47 more returned"), std::string::npos) << barrier;
    const std::string shuffle = failure("half_shuffle");
    EXPECT_NE(shuffle.find("returned while thread (0, 0, 0) waits for it at a warp function"),
              std::string::npos)
        << shuffle;
    module.get_function("fill")(Dim3{1}, Dim3{64}, {out});
    EXPECT_EQ(out.get<std::int32_t>(), std::vector<std::int32_t>(64, 7));
}

}  // namespace
