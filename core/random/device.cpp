// kiln::random's device functions: check the arguments, allocate, and launch the generated kernel
// of the distribution and dtype.
#include "../array/array_memory.hpp"
#include "../backend.hpp"
#include "../call_context.hpp"
#include "../kernels/builtin_kernel.hpp"
#include "../layout.hpp"
#include "arguments.hpp"
#include "blocked.hpp"
#include "kernels.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/random.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::random {

namespace {

using detail::RandomDistribution;

constexpr detail::BuiltinKernel random_kernel(detail::random_kernel_name);

// The distribution's kernel for `dtype` on the device of `stream`, its source built only the first
// time: a call neither builds nor hashes source.
detail::NativeFunction random_function(RandomDistribution distribution, DType dtype,
                                       StreamView stream, bool blocked = false) {
    std::string variant(name(dtype));
    variant += ' ';
    variant += std::to_string(static_cast<int>(distribution));
    if (blocked) {
        variant += " blocked";
    }
    return random_kernel.function(stream, variant, [&](const detail::KernelDialect& dialect) {
        return detail::random_source(distribution, dtype, dialect, blocked);
    });
}

// A new array of `shape`, allocated on `stream` and filled there by the distribution's kernel,
// whose last two arguments are `a` and `b` (kernels.hpp).
template <class A, class B>
ndarray generate(RandomDistribution distribution, const Shape& shape, DType dtype,
                 std::uint64_t seed, A a, B b, std::optional<StreamView> stream,
                 const char* function) {
    // Checked here too so that a bad shape's error names this function rather than empty().
    static_cast<void>(detail::checked_size(shape, itemsize(dtype), function));
    const StreamView on = detail::call_context(function, stream, std::nullopt);
    ndarray out = detail::empty_on(shape, dtype, on);
    long long count = out.size();
    if (count == 0) {
        return out;
    }
    void* data = out.data();
    unsigned long long seed_argument = seed;
    std::array<void*, 5> args{&data, &count, &seed_argument, &a, &b};
    random_kernel.launch_indices(random_function(distribution, dtype, on), count, on, args.data());
    return out;
}

// `out`'s slabs filled by the distribution's blocked kernel on the current stream.
template <class A, class B>
void generate_into(RandomDistribution distribution, const ndarray& out,
                   const std::vector<detail::RandomSlab>& slabs, std::uint64_t seed, A a, B b,
                   const char* function) {
    if (!out.c_contiguous()) {
        throw ValueError("kiln: " + std::string(function) + ": the output must be C-contiguous");
    }
    const StreamView on = detail::call_context(function, std::nullopt, out.device());
    detail::NativeFunction kernel = random_function(distribution, out.dtype(), on, true);
    for (const detail::RandomSlab& slab : slabs) {
        if (slab.count == 0) {
            continue;
        }
        if (slab.first < 0 || slab.count < 0 || slab.first + slab.count > out.size() ||
            slab.run < 1) {
            throw ValueError(
                "kiln: " + std::string(function) + ": slab [" + std::to_string(slab.first) + ", +" +
                std::to_string(slab.count) + ") with run " + std::to_string(slab.run) +
                " does not fit the output of " + std::to_string(out.size()) + " elements");
        }
        void* data = static_cast<std::byte*>(out.data()) +
                     slab.first * static_cast<std::int64_t>(itemsize(out.dtype()));
        long long count = slab.count;
        unsigned long long seed_argument = seed;
        long long offset = slab.offset;
        long long run = slab.run;
        long long stride = slab.stride;
        std::array<void*, 8> args{&data, &count, &seed_argument, &a, &b, &offset, &run, &stride};
        random_kernel.launch_indices(kernel, count, on, args.data());
    }
}

}  // namespace

ndarray uniform(const Shape& shape, double low, double high, std::uint64_t seed, DType dtype,
                std::optional<StreamView> stream) {
    detail::check_random_real_dtype(dtype, "uniform");
    detail::check_uniform_range(low, high, "uniform");
    return generate(RandomDistribution::uniform, shape, dtype, seed, low, high - low, stream,
                    "uniform");
}

ndarray normal(const Shape& shape, double mean, double stddev, std::uint64_t seed, DType dtype,
               std::optional<StreamView> stream) {
    detail::check_random_real_dtype(dtype, "normal");
    detail::check_normal_parameters(mean, stddev, "normal");
    return generate(RandomDistribution::normal, shape, dtype, seed, mean, stddev, stream, "normal");
}

ndarray integers(const Shape& shape, std::int64_t low, std::int64_t high, std::uint64_t seed,
                 DType dtype, std::optional<StreamView> stream) {
    detail::check_random_integer_dtype(dtype, "integers");
    detail::check_integer_range(low, high, dtype, "integers");
    const auto lowest = static_cast<long long>(low);
    const auto range = static_cast<unsigned long long>(static_cast<std::uint64_t>(high) -
                                                       static_cast<std::uint64_t>(low));
    return generate(RandomDistribution::integers, shape, dtype, seed, lowest, range, stream,
                    "integers");
}

}  // namespace kiln::random

namespace kiln::detail {

void random_uniform_into(const ndarray& out, const std::vector<RandomSlab>& slabs, double low,
                         double high, std::uint64_t seed, const char* function) {
    check_random_real_dtype(out.dtype(), function);
    check_uniform_range(low, high, function);
    random::generate_into(RandomDistribution::uniform, out, slabs, seed, low, high - low, function);
}

void random_normal_into(const ndarray& out, const std::vector<RandomSlab>& slabs, double mean,
                        double stddev, std::uint64_t seed, const char* function) {
    check_random_real_dtype(out.dtype(), function);
    check_normal_parameters(mean, stddev, function);
    random::generate_into(RandomDistribution::normal, out, slabs, seed, mean, stddev, function);
}

void random_integers_into(const ndarray& out, const std::vector<RandomSlab>& slabs,
                          std::int64_t low, std::int64_t high, std::uint64_t seed,
                          const char* function) {
    check_random_integer_dtype(out.dtype(), function);
    check_integer_range(low, high, out.dtype(), function);
    const auto lowest = static_cast<long long>(low);
    const auto range = static_cast<unsigned long long>(static_cast<std::uint64_t>(high) -
                                                       static_cast<std::uint64_t>(low));
    random::generate_into(RandomDistribution::integers, out, slabs, seed, lowest, range, function);
}

}  // namespace kiln::detail
