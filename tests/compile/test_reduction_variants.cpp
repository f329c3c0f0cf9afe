// ReductionKernel's generated code for the CI targets, with no device: the seeds' reductions and
// the generator's every branch (identity or none, tuple reduce types, scalar inputs, ranks, index
// widths, every dtype) compile, and the code objects hold both kernels, with (on AMD) the
// argument layout kiln packs.
#include "core/backend.hpp"
#include "core/compile/compile_cache.hpp"
#include "core/kernels/reduction/reduction_arguments.hpp"
#include "core/kernels/reduction/reduction_source.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"

#include <kiln/reduction_kernel.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

using kiln::DType;
using kiln::detail::ReductionDefinition;
using kiln::detail::ReductionVariant;

struct Case {
    ReductionDefinition k;
    ReductionVariant v;
};

ReductionDefinition define(const std::string& in, const std::string& out, const std::string& map,
                           const std::string& reduce, const std::string& post,
                           const std::string& identity, const std::string& name,
                           const std::string& reduce_type = "") {
    return kiln::detail::define_reduction(in, out, map, reduce, post, identity, name, reduce_type,
                                          "");
}

ReductionVariant variant(std::vector<DType> in, std::vector<DType> out, std::vector<DType> reduce,
                         std::size_t out_ndim = 1, std::size_t reduce_ndim = 1, bool index32 = true,
                         std::vector<bool> scalar = {}) {
    ReductionVariant v;
    scalar.resize(in.size(), false);
    v.in_scalar = std::move(scalar);
    v.in_dtypes = std::move(in);
    v.out_dtypes = std::move(out);
    v.reduce_dtypes = std::move(reduce);
    v.out_ndim = out_ndim;
    v.reduce_ndim = reduce_ndim;
    v.index32 = index32;
    return v;
}

std::vector<Case> cases() {
    using kiln::complex128;
    using kiln::float16;
    using kiln::float32;
    using kiln::float64;
    using kiln::int32;
    using kiln::int64;
    std::vector<Case> all;
    const auto sum_sq = define("T x", "T y", "x * x", "a + b", "y = a", "0", "sum_of_squares");
    const auto l2norm = define("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
    const auto mse = define("T x, T y", "T z", "(x - y) * (x - y)", "a + b",
                            "z = a / _in_ind.size()", "0", "mse");
    const auto max = define("T x", "T y", "x", "a > b ? a : b", "y = a", "", "maximum");
    const auto argmax = define("T x", "T best, int64 at", "x, _J", "a._0 >= b._0 ? a : b",
                               "best = a._0; at = a._1", "", "argmax");
    const auto moments = define("T x, T w", "float64 mean, float64 count",
                                "double(x) * double(w), double(w)", "a._0 + b._0, a._1 + b._1",
                                "mean = a._0 / a._1; count = a._1", "0, 0", "weighted_mean");
    const auto scaled = define("T x, T s", "T y", "x * s", "a + b", "y = a", "0", "scaled_sum");
    const auto norm2 = define("complex128 z", "float64 r", "norm(z)", "a + b", "r = a", "0",
                              "squared_magnitude", "float64");
    // Every dtype through the one-input sum, with the reduce type spelled as a C type.
    for (std::size_t d = 0; d < kiln::detail::dtype_traits.size(); ++d) {
        const auto dtype = static_cast<DType>(d);
        auto k = define("T x", "T y", "x", "a + b", "y = a", "0",
                        "sum_" + std::string(kiln::name(dtype)));
        all.push_back({k, variant({dtype}, {dtype}, {dtype})});
    }
    all.push_back({sum_sq, variant({int32}, {int32}, {int32})});
    all.push_back({l2norm, variant({float32}, {float32}, {float32}, 1, 1)});
    all.push_back({l2norm, variant({float64}, {float64}, {float64}, 2, 3, false)});
    all.push_back({mse, variant({float64, float64}, {float64}, {float64}, 1, 1, false)});
    all.push_back({mse, variant({float32, float32}, {float32}, {float32}, 3, 2)});
    all.push_back({max, variant({float16}, {float16}, {float16}, 2, 1)});
    all.push_back({max, variant({int64}, {int64}, {int64}, 1, 2, false)});
    all.push_back({argmax, variant({float32}, {float32, int64}, {float32, int64}, 1, 2)});
    all.push_back({moments, variant({float32, float32}, {float64, float64}, {float64, float64})});
    all.push_back(
        {scaled, variant({float64, float64}, {float64}, {float64}, 2, 1, true, {false, true})});
    all.push_back({norm2, variant({complex128}, {float64}, {float64}, 1, 1, false)});
    return all;
}

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> packed(
    const std::vector<kiln::detail::ArgumentSlot>& slots) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> args;
    for (const auto& slot : slots) {
        args.emplace_back(slot.offset, slot.size);
    }
    return args;
}

// On AMD, the kernel's argument block as the code object declares it is what kiln packs.
void expect_amd_layout(const kiln::test::ElfInfo& elf, const std::string& name,
                       const std::vector<kiln::detail::ArgumentSlot>& slots) {
    EXPECT_TRUE(has(elf.symbols, name + ".kd")) << "AMD kernel descriptor missing";
    const auto kernel =
        std::find_if(elf.amdgpu_kernels.begin(), elf.amdgpu_kernels.end(),
                     [&](const kiln::test::AmdgpuKernel& m) { return m.name == name; });
    ASSERT_NE(kernel, elf.amdgpu_kernels.end()) << name << ": no metadata";
    EXPECT_EQ(kiln::test::explicit_args(*kernel), packed(slots)) << name;
}

TEST(ReductionVariants, EveryVariantCompilesForTheSweepTargets) {
    const auto all = cases();
    for (const auto& target : kiln::test::sweep_targets()) {
        for (const auto& [k, v] : all) {
            SCOPED_TRACE(target + " " + k.name + " " + kiln::detail::variant_key(v));
            const std::string source = kiln::detail::reduction_source(k, v);
            kiln::detail::CompiledBinary binary;
            ASSERT_NO_THROW(binary =
                                kiln::detail::compile_uncached({source, k.name, {}, {}}, target));
            const auto elf = kiln::test::read_elf(binary.image);
            EXPECT_EQ(elf.machine, kiln::test::elf_machine());
            EXPECT_TRUE(has(elf.symbols, k.name));
            EXPECT_TRUE(has(elf.symbols, kiln::detail::finish_name(k)));
            if (kiln::test::is_amd()) {
                expect_amd_layout(elf, k.name, kiln::detail::reduce_layout(v));
                expect_amd_layout(elf, kiln::detail::finish_name(k),
                                  kiln::detail::finish_layout(v));
            }
        }
    }
}

// A call of scalars is laid out and its source generated without a device: its output is planned
// C-contiguous, not allocated. Both inputs are by value, each group has its one axis of extent 1.
TEST(ReductionVariants, SourceOfACallOfScalarsNeedsNoDevice) {
    const kiln::ReductionKernel scaled("T x, T s", "T y", "x * s", "a + b", "y = a", "0",
                                       "scaled_sum");
    const std::vector<kiln::Argument> args{kiln::Scalar(2.5), kiln::Scalar(4.0)};
    const auto expected = variant({kiln::float64, kiln::float64}, {kiln::float64}, {kiln::float64},
                                  1, 1, true, {true, true});
    EXPECT_EQ(
        scaled.source(args),
        kiln::detail::reduction_source(
            define("T x, T s", "T y", "x * s", "a + b", "y = a", "0", "scaled_sum"), expected));
    // Bad input is the call's error, still without a device.
    EXPECT_THROW((void)scaled.source(std::vector<kiln::Argument>{kiln::Scalar(2.5)}),
                 kiln::TypeError);
    EXPECT_THROW((void)scaled.source(args, {.axis = 0}), kiln::IndexError);
}

}  // namespace
