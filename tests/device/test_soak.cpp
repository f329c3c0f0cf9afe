// A soak under load: several threads, each on streams of its own, run a seeded random mix of every
// kernel class (ElementwiseKernel, ReductionKernel, RawKernel, a JIT kernel, fuse), routines
// (ufuncs, reductions, a scan, matmul, random), allocations and frees of random sizes, host
// transfers both ways, and event waits across streams and threads, for a bounded time:
// KILN_SOAK_SECONDS, by default 10 s on the host backend and 60 s on a GPU. Every result is checked
// against a plain C++ loop or closed form. The kernels compile before the clock starts, so the
// soak exercises execution. The pool's peak stays under the bound the threads' live arrays allow,
// and its used bytes return to where they started. KILN_SOAK_SEED repeats a mix; a failure names
// the seed.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

KILN_JIT_KERNEL(kiln_soak_square_plus_index, (const long long* x, long long* y, long long n), {
    long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * x[i] + i;
});

namespace {

using kiln::Dim3;
using kiln::ndarray;
using Values = std::vector<std::int64_t>;

constexpr int thread_count = 4;
constexpr std::int64_t most_elements = 1 << 14;
constexpr std::int64_t matmul_most = 48;
// Arrays a thread keeps alive between steps, and the most one step holds at once (its inputs,
// outputs, temporaries and another thread's published array).
constexpr std::size_t kept_most = 6;
constexpr std::size_t step_arrays_most = 8;
// matmul takes cuBLAS's recommended workspace from the pool for every float call, on every
// backend (the host's too, which has no BLAS), whatever the matrices' size.
constexpr std::size_t matmul_workspace = std::size_t{32} << 20;
// The pool's peak, in the bytes asked for: every thread's kept arrays, a step's and the one it
// publishes, each at most most_elements 8-byte elements, and a matmul's workspace.
constexpr std::size_t peak_bound =
    thread_count *
    ((kept_most + step_arrays_most + 1) * most_elements * sizeof(std::int64_t) + matmul_workspace);

int soak_seconds() {
    if (const char* text = std::getenv("KILN_SOAK_SECONDS")) {  // NOLINT(concurrency-mt-unsafe)
        return std::stoi(text);
    }
    return kiln::test::is_host() ? 10 : 60;
}

std::uint64_t soak_seed() {
    if (const char* text = std::getenv("KILN_SOAK_SEED")) {  // NOLINT(concurrency-mt-unsafe)
        return std::stoull(text);
    }
    return std::random_device{}();
}

// A mismatch: thrown by a worker thread, reported with the seed by the test.
[[noreturn]] void mismatch(const std::string& what) {
    throw std::runtime_error(what);
}

template <class T>
void expect_values(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
    if (got.size() != want.size()) {
        mismatch(what + ": " + std::to_string(got.size()) + " elements, expected " +
                 std::to_string(want.size()));
    }
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (got[i] != want[i]) {
            mismatch(what + ": element " + std::to_string(i) + " of " + std::to_string(got.size()) +
                     " is " + std::to_string(got[i]) + ", expected " + std::to_string(want[i]));
        }
    }
}

unsigned blocks_for(std::int64_t n) {
    return static_cast<unsigned>((n + 255) / 256);
}

// One thread's randomness, and its streams: `work` is current, `side` waits on events.
struct Worker {
    std::mt19937_64 random;
    kiln::Stream work{true};
    kiln::Stream side{true};

    std::int64_t between(std::int64_t low, std::int64_t high) {
        return std::uniform_int_distribution<std::int64_t>(low, high)(random);
    }
    Values values(std::int64_t n, std::int64_t magnitude = 1000) {
        Values v(static_cast<std::size_t>(n));
        for (auto& x : v) {
            x = between(-magnitude, magnitude);
        }
        return v;
    }
    ndarray upload(const Values& v) {
        return kiln::array(std::span<const std::int64_t>(v), {static_cast<std::int64_t>(v.size())},
                           work);
    }
    static Values download(const ndarray& a) { return a.get<std::int64_t>(); }
};

// An array one thread published for others: its values are `value` once `ready` is reached.
struct Published {
    std::shared_ptr<kiln::Event> ready;
    ndarray values;
    std::int64_t value = 0;
};

class Exchange {
public:
    void publish(int thread, Published published) {
        const std::scoped_lock lock(mutex_);
        slots_.at(static_cast<std::size_t>(thread)) = std::move(published);
    }
    [[nodiscard]] std::optional<Published> latest(int thread) {
        const std::scoped_lock lock(mutex_);
        return slots_.at(static_cast<std::size_t>(thread));
    }
    void clear() {
        const std::scoped_lock lock(mutex_);
        slots_ = {};
    }

private:
    std::mutex mutex_;
    std::array<std::optional<Published>, thread_count> slots_;
};

struct Kernels {
    kiln::ElementwiseKernel multiply_add{"T x, T y", "T z", "z = x * y + T(3)",
                                         "kiln_soak_multiply_add"};
    kiln::ReductionKernel sum_of_squares{
        "T x", "T y", "x * x", "a + b", "y = a", "0", "kiln_soak_sum_of_squares"};
    kiln::RawKernel affine{R"(
extern "C" __global__ void kiln_soak_affine(const long long* x, long long* y, long long a,
                                            long long n) {
    long long i = blockDim.x * (long long)blockIdx.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] - 1;
}
)",
                           "kiln_soak_affine"};
};

const auto twice_minus =
    kiln::fuse("kiln_soak_twice_minus", [](auto x, auto y) { return x * 2 - y; });

// What a thread keeps between steps: arrays of one value each, freed in random order.
using Kept = std::vector<std::pair<ndarray, std::int64_t>>;

struct Context {
    const Kernels& kernels;
    Exchange& exchange;
    int thread = 0;
    Kept kept;
};

using Step = void (*)(Worker&, Context&);

void elementwise_step(Worker& w, Context& c) {
    const std::int64_t n = w.between(1, most_elements);
    const Values x = w.values(n);
    const Values y = w.values(n);
    const ndarray z = c.kernels.multiply_add({w.upload(x), w.upload(y)}, {.stream = w.work.view()});
    Values want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        want[i] = x[i] * y[i] + 3;
    }
    expect_values(Worker::download(z), want, "ElementwiseKernel x * y + 3");
}

void reduction_kernel_step(Worker& w, Context& c) {
    const Values x = w.values(w.between(1, most_elements));
    const ndarray y = c.kernels.sum_of_squares({w.upload(x)}, {.stream = w.work.view()});
    std::int64_t want = 0;
    for (const std::int64_t v : x) {
        want += v * v;
    }
    expect_values(Worker::download(y), Values{want}, "ReductionKernel sum of squares");
}

void raw_kernel_step(Worker& w, Context& c) {
    const std::int64_t n = w.between(1, most_elements);
    const Values x = w.values(n);
    const std::int64_t a = w.between(-50, 50);
    const ndarray y = kiln::empty({n}, kiln::int64);
    c.kernels.affine(Dim3{blocks_for(n)}, Dim3{256}, {w.upload(x), y, a, n},
                     {.stream = w.work.view()});
    Values want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        want[i] = a * x[i] - 1;
    }
    expect_values(Worker::download(y), want, "RawKernel a * x - 1");
}

void jit_kernel_step(Worker& w, Context& /*c*/) {
    const std::int64_t n = w.between(1, most_elements);
    const Values x = w.values(n);
    const ndarray y = kiln::empty({n}, kiln::int64);
    kiln_soak_square_plus_index(Dim3{blocks_for(n)}, Dim3{256}, w.upload(x), y, n,
                                {.stream = w.work.view()});
    Values want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        want[i] = x[i] * x[i] + static_cast<std::int64_t>(i);
    }
    expect_values(Worker::download(y), want, "JIT kernel x * x + i");
}

void fuse_step(Worker& w, Context& /*c*/) {
    const std::int64_t n = w.between(1, most_elements);
    const Values x = w.values(n);
    const Values y = w.values(n);
    const ndarray z = twice_minus(w.upload(x), w.upload(y));
    Values want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        want[i] = 2 * x[i] - y[i];
    }
    expect_values(Worker::download(z), want, "fuse 2 * x - y");
}

void ufunc_step(Worker& w, Context& /*c*/) {
    const std::int64_t n = w.between(1, most_elements);
    const Values x = w.values(n);
    const Values y = w.values(n);
    const ndarray dx = w.upload(x);
    const ndarray z = kiln::add(dx, kiln::multiply(dx, w.upload(y)));
    Values want(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        want[i] = x[i] + x[i] * y[i];
    }
    expect_values(Worker::download(z), want, "add(x, multiply(x, y))");
}

void reductions_step(Worker& w, Context& /*c*/) {
    const Values x = w.values(w.between(1, most_elements));
    const ndarray dx = w.upload(x);
    std::int64_t total = 0;
    std::int64_t largest = x.front();
    for (const std::int64_t v : x) {
        total += v;
        largest = std::max(largest, v);
    }
    expect_values(Worker::download(kiln::sum(dx)), Values{total}, "sum");
    expect_values(Worker::download(kiln::max(dx)), Values{largest}, "max");
}

void scan_step(Worker& w, Context& /*c*/) {
    const Values x = w.values(w.between(1, most_elements));
    Values want(x.size());
    std::int64_t running = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        want[i] = running += x[i];
    }
    expect_values(Worker::download(kiln::cumsum(w.upload(x))), want, "cumsum");
}

// Small integers in float64: every product and sum is exact, whatever the order.
void matmul_step(Worker& w, Context& /*c*/) {
    const std::int64_t m = w.between(1, matmul_most);
    const std::int64_t k = w.between(1, matmul_most);
    const std::int64_t n = w.between(1, matmul_most);
    std::vector<double> a(static_cast<std::size_t>(m * k));
    std::vector<double> b(static_cast<std::size_t>(k * n));
    for (auto& v : a) {
        v = static_cast<double>(w.between(-8, 8));
    }
    for (auto& v : b) {
        v = static_cast<double>(w.between(-8, 8));
    }
    const ndarray c = kiln::matmul(kiln::array(std::span<const double>(a), {m, k}, w.work),
                                   kiln::array(std::span<const double>(b), {k, n}, w.work));
    std::vector<double> want(static_cast<std::size_t>(m * n));
    for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
            double sum = 0;
            for (std::int64_t p = 0; p < k; ++p) {
                sum +=
                    a[static_cast<std::size_t>(i * k + p)] * b[static_cast<std::size_t>(p * n + j)];
            }
            want[static_cast<std::size_t>(i * n + j)] = sum;
        }
    }
    expect_values(c.get<double>(), want, "matmul");
}

void random_step(Worker& w, Context& /*c*/) {
    const std::int64_t n = w.between(1, most_elements);
    const auto seed = static_cast<std::uint64_t>(w.between(0, 1 << 30));
    const ndarray u = kiln::random::uniform({n}, -1.0, 1.0, seed, kiln::float64, w.work.view());
    expect_values(u.get<double>(),
                  kiln::random::uniform_host<double>(static_cast<std::size_t>(n), -1.0, 1.0, seed),
                  "random::uniform");
}

// Allocations and frees of random sizes: a new array of one value, or a kept one checked and freed.
void churn_step(Worker& w, Context& c) {
    if (c.kept.size() < kept_most && (c.kept.empty() || w.between(0, 1) == 0)) {
        const std::int64_t value = w.between(-1000, 1000);
        c.kept.emplace_back(kiln::full({w.between(1, most_elements)}, value, kiln::int64), value);
        return;
    }
    const auto index =
        static_cast<std::size_t>(w.between(0, static_cast<std::int64_t>(c.kept.size()) - 1));
    const auto [kept, value] = std::move(c.kept[index]);
    c.kept.erase(c.kept.begin() + static_cast<std::ptrdiff_t>(index));
    expect_values(Worker::download(kept), Values(static_cast<std::size_t>(kept.size()), value),
                  "a kept array of one value");
}

// Host to device and back, both asynchronous on the side stream.
void copy_step(Worker& w, Context& /*c*/) {
    const Values x = w.values(w.between(1, most_elements), 1'000'000'000);
    ndarray a = kiln::empty({static_cast<std::int64_t>(x.size())}, kiln::int64);
    w.work.synchronize();  // `a` is the work stream's until then
    a.set(std::span<const std::int64_t>(x), w.side.view());
    Values back(x.size());
    a.get(std::span<std::int64_t>(back), w.side.view());
    w.side.synchronize();
    expect_values(back, x, "host to device and back");
}

// This thread publishes an array filled on its work stream, marked by an event; its side stream
// waits on the event another thread published, then reads that thread's array.
void exchange_step(Worker& w, Context& c) {
    const std::int64_t value = w.between(-1000, 1000);
    Published mine{std::make_shared<kiln::Event>(),
                   kiln::full({w.between(1, most_elements)}, value, kiln::int64), value};
    mine.ready->record(w.work.view());
    c.exchange.publish(c.thread, std::move(mine));

    const int other = (c.thread + 1) % thread_count;
    const std::optional<Published> theirs = c.exchange.latest(other);
    if (!theirs) {
        return;
    }
    kiln::wait_event(w.side.view(), *theirs->ready);
    const ndarray plus_one = kiln::add(theirs->values, 1, {.stream = w.side.view()});
    Values got(static_cast<std::size_t>(plus_one.size()));
    plus_one.get(std::span<std::int64_t>(got), w.side.view());
    w.side.synchronize();
    expect_values(got, Values(got.size(), theirs->value + 1),
                  "thread " + std::to_string(other) + "'s array after its event, plus one");
}

struct NamedStep {
    const char* name;
    Step run;
};

constexpr std::array steps{
    NamedStep{"ElementwiseKernel", elementwise_step},
    NamedStep{"ReductionKernel", reduction_kernel_step},
    NamedStep{"RawKernel", raw_kernel_step},
    NamedStep{"JIT kernel", jit_kernel_step},
    NamedStep{"fuse", fuse_step},
    NamedStep{"ufuncs", ufunc_step},
    NamedStep{"reductions", reductions_step},
    NamedStep{"cumsum", scan_step},
    NamedStep{"matmul", matmul_step},
    NamedStep{"random", random_step},
    NamedStep{"allocations", churn_step},
    NamedStep{"copies", copy_step},
    NamedStep{"event exchange", exchange_step},
};

struct ThreadResult {
    std::array<std::int64_t, steps.size()> runs{};
    std::string failure;
};

// One thread's soak: random steps until the deadline, or until one fails.
void soak(int thread, std::uint64_t seed, std::chrono::steady_clock::time_point deadline,
          const Kernels& kernels, Exchange& exchange, ThreadResult& result) {
    std::int64_t done = 0;
    const char* step = "setup";
    try {
        Worker w{std::mt19937_64(seed + static_cast<std::uint64_t>(thread))};
        const kiln::StreamGuard on_work(w.work);
        Context c{kernels, exchange, thread, {}};
        constexpr auto last = static_cast<std::int64_t>(steps.size()) - 1;
        while (std::chrono::steady_clock::now() < deadline) {
            const auto pick = static_cast<std::size_t>(w.between(0, last));
            step = steps.at(pick).name;
            steps.at(pick).run(w, c);
            ++result.runs.at(pick);
            ++done;
        }
        step = "the end";
        c.kept.clear();
        w.work.synchronize();
        w.side.synchronize();
    } catch (const std::exception& e) {
        result.failure = "thread " + std::to_string(thread) + ", step " + std::to_string(done) +
                         " (" + step + "): " + e.what();
    }
}

TEST(Soak, ThreadsMixEveryKindOfWorkAndEveryResultMatchesTheHost) {
    KILN_REQUIRE_DEVICE();
    const std::uint64_t seed = soak_seed();
    SCOPED_TRACE("KILN_SOAK_SEED=" + std::to_string(seed));
    const Kernels kernels;
    Exchange exchange;
    // Every step once, each on a thread of its own so that their first compiles overlap, before
    // the clock starts.
    std::array<std::string, steps.size()> warm_up_failures;
    {
        std::vector<std::jthread> warming;
        for (std::size_t s = 0; s < steps.size(); ++s) {
            warming.emplace_back([&, s] {
                try {
                    Worker w{std::mt19937_64(seed + s)};
                    const kiln::StreamGuard on_work(w.work);
                    Context c{kernels, exchange, 0, {}};
                    steps.at(s).run(w, c);
                    c.kept.clear();
                    w.work.synchronize();
                    w.side.synchronize();
                } catch (const std::exception& e) {
                    warm_up_failures.at(s) = e.what();
                }
            });
        }
    }
    exchange.clear();
    for (std::size_t s = 0; s < steps.size(); ++s) {
        ASSERT_EQ(warm_up_failures.at(s), "") << steps.at(s).name << ", before the clock";
    }

    kiln::MemoryPool& pool = kiln::get_default_memory_pool();
    const std::size_t used_before = pool.used_bytes();
    kiln::StatisticsResource counted(pool);
    kiln::set_allocator(&counted);

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(soak_seconds());
    std::array<ThreadResult, thread_count> results;
    {
        std::vector<std::jthread> threads;
        for (int i = 0; i < thread_count; ++i) {
            threads.emplace_back(soak, i, seed, deadline, std::cref(kernels), std::ref(exchange),
                                 std::ref(results.at(static_cast<std::size_t>(i))));
        }
    }
    exchange.clear();
    kiln::Device::current().synchronize();
    kiln::set_allocator(nullptr);

    for (const ThreadResult& result : results) {
        EXPECT_EQ(result.failure, "");
    }
    std::array<std::int64_t, steps.size()> runs{};
    for (const ThreadResult& result : results) {
        for (std::size_t s = 0; s < steps.size(); ++s) {
            runs.at(s) += result.runs.at(s);
        }
    }
    for (std::size_t s = 0; s < steps.size(); ++s) {
        EXPECT_GT(runs.at(s), 0) << steps.at(s).name << " never ran";
    }
    const kiln::Statistics statistics = counted.statistics();
    std::int64_t total = 0;
    for (const std::int64_t r : runs) {
        total += r;
    }
    std::cout << "soak: " << total << " steps on " << thread_count << " threads in "
              << soak_seconds() << " s; pool peak " << statistics.peak_bytes << " of " << peak_bound
              << " bytes; KILN_SOAK_SEED=" << seed << "\n";
    EXPECT_GT(statistics.total_allocations, 0U);
    EXPECT_LE(statistics.peak_bytes, peak_bound);
    EXPECT_EQ(statistics.current_bytes, 0U);
    EXPECT_EQ(statistics.current_allocations, 0U);
    EXPECT_EQ(pool.used_bytes(), used_before);
}

}  // namespace
