// The kernels kiln::fuse generates compile with NVRTC or HIPRTC, with no device: elementwise
// functions of several dtypes (float16, complex, integers), several outputs, constants that
// are not finite, and reductions with a map before and a tail after.
#include "core/compile/compile_cache.hpp"
#include "core/kernels/elementwise/elementwise_variant.hpp"
#include "core/kernels/reduction/reduction_definition.hpp"
#include "core/kernels/reduction/reduction_source.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"
#include "tests/support/fuse_trace.hpp"

#include <kiln/fuse.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using kiln::DType;
using kiln::ndarray;
using kiln::detail::FusedDefinition;

using kiln::test::trace;
using kiln::test::Traced;

ndarray array_of(DType dtype, std::size_t ndim) {
    return kiln::test::memoryless_array(dtype, ndim);
}

bool is_scalar(const Traced& t, std::int32_t position) {
    return (t.key.codes.at(static_cast<std::size_t>(position)) & kiln::detail::fusion_scalar_bit) !=
           0;
}

// The source of the traced kernel's variant with every array contiguous along one axis (and,
// for a reduction, one kept and one reduced axis).
std::string source_of(const Traced& t) {
    const FusedDefinition& f = t.fused;
    if (!f.reduction) {
        kiln::ElementwiseOptions options;
        options.preamble = f.preamble;
        const kiln::detail::ElementwiseDefinition k(f.in_params, f.out_params, f.operation, f.name,
                                                    options);
        kiln::detail::ElementwiseVariant v{{}, 1, true, true};
        for (std::size_t p = 0; p < k.in.size(); ++p) {
            using Kind = kiln::detail::OperandVariant::Kind;
            v.operands.push_back(
                {is_scalar(t, f.arguments[p]) ? Kind::scalar : Kind::array, *k.in[p].dtype});
        }
        for (const auto& out : k.out) {
            v.operands.push_back({kiln::detail::OperandVariant::Kind::array, *out.dtype});
        }
        return kiln::detail::elementwise_source(k, v);
    }
    const auto k = kiln::detail::define_reduction(f.in_params, f.out_params, f.map_expr,
                                                  f.reduce_expr, f.post_map_expr, f.identity,
                                                  f.name, f.reduce_type, f.preamble);
    kiln::detail::ReductionVariant v;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        v.in_dtypes.push_back(*k.in[p].dtype);
        v.in_scalar.push_back(is_scalar(t, f.arguments[p]));
    }
    for (const auto& out : k.out) {
        v.out_dtypes.push_back(*out.dtype);
    }
    for (const auto& type : k.reduce_types) {
        v.reduce_dtypes.push_back(*kiln::detail::dtype_from_spelling(type));
    }
    v.out_ndim = 1;
    v.reduce_ndim = 1;
    v.index32 = true;
    return kiln::detail::reduction_source(k, v);
}

void expect_compiles(const Traced& t) {
    SCOPED_TRACE(t.fused.name);
    const std::string source = source_of(t);
    kiln::detail::CompiledBinary binary;
    ASSERT_NO_THROW(binary = kiln::detail::compile_uncached({source, t.fused.name, {}, {}},
                                                            kiln::test::compile_targets().front()))
        << source;
    const auto elf = kiln::test::read_elf(binary.image);
    EXPECT_EQ(elf.machine, kiln::test::elf_machine());
    EXPECT_NE(std::find(elf.symbols.begin(), elf.symbols.end(), t.fused.name), elf.symbols.end())
        << t.fused.name << " is not in the code object";
}

TEST(Fuse, ElementwiseKernelsCompile) {
    const auto squared_diff = [](auto x, auto y) { return (x - y) * (x - y); };
    expect_compiles(trace("squared_diff", squared_diff, array_of(DType::float32, 1),
                          array_of(DType::float32, 1)));
    // float16 computes in float; where and comparisons; a scalar parameter.
    const auto half_ops = [](auto x, auto s) {
        return kiln::exp(x) * s + kiln::where(x > 0, x, -x);
    };
    expect_compiles(trace("half_ops", half_ops, array_of(DType::float16, 2), 0.5));
    // complex64 with a complex scalar and its real part.
    const auto complex_ops = [](auto z, auto s) { return kiln::real(kiln::conj(z) * z + s); };
    expect_compiles(trace("complex_ops", complex_ops, array_of(DType::complex64, 1),
                          std::complex<double>(1, 2)));
    // Integers: NumPy's floor division and remainder, a shift, a conversion.
    const auto integer_ops = [](auto x, auto y) {
        return (kiln::floor_divide(x, y) % 7 + (x << 2)).astype(DType::float32);
    };
    expect_compiles(
        trace("integer_ops", integer_ops, array_of(DType::int32, 1), array_of(DType::int32, 1)));
    // Constants that are not finite, and the largest integers.
    const auto constants = [](auto x, auto i) {
        return std::tuple(kiln::where(kiln::isnan(x), std::numeric_limits<double>::infinity(), x),
                          kiln::minimum(i, std::numeric_limits<std::int64_t>::min()) +
                              std::numeric_limits<std::uint32_t>::max());
    };
    expect_compiles(
        trace("constants", constants, array_of(DType::float64, 1), array_of(DType::int64, 1)));
}

TEST(Fuse, SeveralOutputsCompileAsOneKernel) {
    const auto outputs = [](auto x, auto y, auto s) {
        return std::tuple(x * s + y, x - y, x > y, kiln::sqrt(x * x + y * y));
    };
    const Traced t = trace("several_outputs", outputs, array_of(DType::float64, 2),
                           array_of(DType::float64, 1), 2.0);
    EXPECT_EQ(t.fused.out_params, "float64 out0, float64 out1, bool out2, float64 out3");
    expect_compiles(t);
}

TEST(Fuse, ReductionsWithAMapAndATailCompile) {
    const auto sum_of_products = [](auto x, auto y) { return kiln::sum(x * y, -1); };
    expect_compiles(trace("sum_of_products", sum_of_products, array_of(DType::float32, 2),
                          array_of(DType::float32, 2)));
    const auto norm = [](auto x) { return kiln::sqrt(kiln::sum(x * x, -1)); };
    expect_compiles(trace("norm", norm, array_of(DType::float32, 2)));
    const auto mse = [](auto x, auto y) { return kiln::mean((x - y) * (x - y)); };
    expect_compiles(trace("mse", mse, array_of(DType::float64, 1), array_of(DType::float64, 1)));
    // No identity (max), float16 accumulating in float, a scalar in the map and in the tail.
    const auto scaled_max = [](auto x, auto s) { return kiln::max(x * s, 0, true) / s; };
    expect_compiles(trace("scaled_max", scaled_max, array_of(DType::float16, 2), 2.0F));
    // int8 products accumulate in int64; complex sums.
    const auto product = [](auto x) { return kiln::prod(x + 1, 0); };
    expect_compiles(trace("int_product", product, array_of(DType::int8, 2)));
    const auto complex_sum = [](auto z) { return kiln::absolute(kiln::sum(z * z)); };
    expect_compiles(trace("complex_sum", complex_sum, array_of(DType::complex64, 1)));
    // Several members (Welford's moments; argmax's value and index _J) and var's ddof.
    const auto deviation = [](auto x, auto y) { return kiln::std(x - y, {.axis = 1, .ddof = 1}); };
    expect_compiles(
        trace("deviation", deviation, array_of(DType::float32, 2), array_of(DType::float32, 2)));
    const auto complex_var = [](auto z) { return kiln::var(z * z); };
    expect_compiles(trace("complex_var", complex_var, array_of(DType::complex64, 1)));
    const auto peak = [](auto x) { return kiln::argmax(x * 2, 0) + 1; };
    expect_compiles(trace("peak", peak, array_of(DType::int32, 2)));
}

}  // namespace
