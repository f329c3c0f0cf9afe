// Placeholder binding against CuPy's documented rules: outputs first, then inputs, in order;
// arrays bind their dtype, scalars only placeholders no array binds; a fixed dtype takes an array
// of exactly that dtype. The kernels are those of CuPy's user guide where one fits.
#include "core/kernels/param_spec.hpp"
#include "core/kernels/type_binding.hpp"

#include <kiln/dtype.hpp>
#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

namespace {

using kiln::DType;
using kiln::detail::ArgumentType;
using kiln::detail::bind_types;
using kiln::detail::KernelKind;
using kiln::detail::ParamSpec;
using kiln::detail::parse_params;
using kiln::detail::resolved_dtype;

using Binding = std::map<std::string, DType, std::less<>>;

ArgumentType array(DType dtype) {
    return {ArgumentType::array, dtype};
}
ArgumentType scalar(DType dtype) {
    return {ArgumentType::scalar, dtype};
}
ArgumentType absent() {
    return {ArgumentType::absent, kiln::bool_};
}

// A kernel's two lists, parsed.
struct Params {
    std::vector<ParamSpec> in, out;
};

Params params(std::string_view in, std::string_view out) {
    return {parse_params(in, "k", "in_params", KernelKind::elementwise),
            parse_params(out, "k", "out_params", KernelKind::elementwise)};
}

Binding bind(const Params& p, const std::vector<ArgumentType>& in_args,
             const std::vector<ArgumentType>& out_args = {}) {
    return bind_types("k", p.in, p.out, in_args, out_args);
}

// The message of the TypeError binding throws.
std::string bind_error(const Params& p, const std::vector<ArgumentType>& in_args,
                       const std::vector<ArgumentType>& out_args = {}) {
    try {
        (void)bind(p, in_args, out_args);
    } catch (const kiln::Error& e) {
        EXPECT_EQ(typeid(e), typeid(kiln::TypeError)) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no exception";
    return {};
}

TEST(TypeBinding, CuPysGenericKernelTakesItsArraysDtype) {
    // squared_diff_generic: 'T x, T y' -> 'T z' with two float32 arrays gives T = float32.
    const Params p = params("T x, T y", "T z");
    EXPECT_EQ(bind(p, {array(kiln::float32), array(kiln::float32)}),
              (Binding{{"T", kiln::float32}}));
    EXPECT_EQ(bind(p, {array(kiln::int16), array(kiln::int16)}), (Binding{{"T", kiln::int16}}));
}

TEST(TypeBinding, EveryDtypeBinds) {
    const Params p = params("T x, raw T y", "T z");
    for (std::size_t index = 0; index < kiln::detail::dtype_traits.size(); ++index) {
        const auto dtype = static_cast<DType>(index);
        EXPECT_EQ(bind(p, {array(dtype), array(dtype)}, {array(dtype)}), (Binding{{"T", dtype}}))
            << kiln::name(dtype);
    }
}

TEST(TypeBinding, FixedAndPlaceholderParamsMix) {
    // 'float32 x, T y' -> 'T z': x must be float32; T comes from y.
    const Params p = params("float32 x, T y", "T z");
    EXPECT_EQ(bind(p, {array(kiln::float32), array(kiln::float64)}),
              (Binding{{"T", kiln::float64}}));
    // A scalar for a fixed-dtype parameter is fine whatever its dtype (converted later).
    EXPECT_EQ(bind(p, {scalar(kiln::float64), array(kiln::int8)}), (Binding{{"T", kiln::int8}}));
    // A kernel of fixed types alone binds nothing.
    EXPECT_EQ(bind(params("float32 x, float32 y", "float32 z"),
                   {array(kiln::float32), scalar(kiln::int64)}),
              Binding{});
}

TEST(TypeBinding, IndependentPlaceholdersBindIndependently) {
    // sqdiff_super_generic: 'X x, Y y' -> 'Z z'; Z comes only from the output array.
    const Params p = params("X x, Y y", "Z z");
    EXPECT_EQ(bind(p, {array(kiln::int32), array(kiln::float64)}, {array(kiln::float32)}),
              (Binding{{"X", kiln::int32}, {"Y", kiln::float64}, {"Z", kiln::float32}}));
}

TEST(TypeBinding, OutputsBindFirst) {
    const Params p = params("T x", "T z");
    EXPECT_EQ(bind_error(p, {array(kiln::float64)}, {array(kiln::float32)}),
              "kiln: kernel 'k': type placeholder T is float32 from out_params 'z' but in_params "
              "'x' is a float64 array (expected arrays of one dtype for one placeholder)");
    // The output decides even where the inputs are scalars of another dtype.
    EXPECT_EQ(bind(p, {scalar(kiln::int64)}, {array(kiln::float32)}),
              (Binding{{"T", kiln::float32}}));
}

TEST(TypeBinding, InputArraysMustAgree) {
    const Params p = params("T x, raw T y", "T z");
    EXPECT_EQ(bind_error(p, {array(kiln::float32), array(kiln::float64)}),
              "kiln: kernel 'k': type placeholder T is float32 from in_params 'x' but in_params "
              "'y' is a float64 array (expected arrays of one dtype for one placeholder)");
    EXPECT_EQ(bind_error(p, {array(kiln::int32), array(kiln::uint32)}),
              "kiln: kernel 'k': type placeholder T is int32 from in_params 'x' but in_params 'y' "
              "is a uint32 array (expected arrays of one dtype for one placeholder)");
}

TEST(TypeBinding, ScalarsBindOnlyWhatNoArrayBinds) {
    const Params p = params("T x, T y", "T z");
    // An array binds T even after a scalar of another dtype.
    EXPECT_EQ(bind(p, {scalar(kiln::float64), array(kiln::float32)}),
              (Binding{{"T", kiln::float32}}));
    EXPECT_EQ(bind(p, {array(kiln::int8), scalar(kiln::int64)}), (Binding{{"T", kiln::int8}}));
    // With scalars alone, the first one's dtype binds T.
    EXPECT_EQ(bind(p, {scalar(kiln::int32), scalar(kiln::float64)}), (Binding{{"T", kiln::int32}}));
    EXPECT_EQ(bind(params("T x", "T z"), {scalar(kiln::complex128)}),
              (Binding{{"T", kiln::complex128}}));
    // A scalar binds its own placeholder while an array binds another.
    EXPECT_EQ(bind(params("T x, U y", "T z"), {array(kiln::uint16), scalar(kiln::float32)}),
              (Binding{{"T", kiln::uint16}, {"U", kiln::float32}}));
}

TEST(TypeBinding, UnboundPlaceholderIsATypeError) {
    const Params p = params("X x, Y y", "Z z");
    EXPECT_EQ(bind_error(p, {array(kiln::int32), array(kiln::float64)}),
              "kiln: kernel 'k': type placeholder Z of out_params 'z' is bound by no argument "
              "(expected an argument for a parameter of type Z: an input array or scalar, or an "
              "output array)");
    EXPECT_EQ(bind_error(params("float32 x", "T z, T w, float64 v"), {array(kiln::float32)},
                         {absent(), absent(), array(kiln::float64)}),
              "kiln: kernel 'k': type placeholder T of out_params 'z', out_params 'w' is bound by "
              "no argument (expected an argument for a parameter of type T: an input array or "
              "scalar, or an output array)");
}

TEST(TypeBinding, FixedDtypeTakesOnlyItsOwnArrays) {
    const Params p = params("float32 x, T y", "T z");
    EXPECT_EQ(bind_error(p, {array(kiln::float64), array(kiln::float64)}),
              "kiln: kernel 'k': in_params 'x' has dtype float32 but its argument is a float64 "
              "array (expected an array of exactly float32, or a scalar)");
    EXPECT_EQ(bind_error(params("T x", "int64 n"), {array(kiln::int8)}, {array(kiln::int32)}),
              "kiln: kernel 'k': out_params 'n' has dtype int64 but its argument is a int32 array "
              "(expected an array of exactly int64, or a scalar)");
}

TEST(TypeBinding, AbsentOutputsBindNothing) {
    const Params p = params("T x", "T z, float64 w");
    const Binding expected{{"T", kiln::uint8}};
    EXPECT_EQ(bind(p, {array(kiln::uint8)}), expected);
    EXPECT_EQ(bind(p, {array(kiln::uint8)}, {absent()}), expected);
    EXPECT_EQ(bind(p, {array(kiln::uint8)}, {absent(), absent()}), expected);
    EXPECT_EQ(bind(p, {array(kiln::uint8)}, {absent(), array(kiln::float64)}), expected);
    // The dtype carried by an absent argument plays no part.
    EXPECT_EQ(bind(p, {array(kiln::uint8)}, {{ArgumentType::absent, kiln::complex64}}), expected);
}

TEST(TypeBinding, ArgumentsMustFitTheLists) {
    const Params p = params("T x, T y", "T z");
    EXPECT_EQ(bind_error(p, {array(kiln::float32)}),
              "kiln: kernel 'k': expected 2 input arguments (x, y), got 1");
    EXPECT_EQ(bind_error(params("T x", "T z"), {array(kiln::float32), array(kiln::float32)}),
              "kiln: kernel 'k': expected 1 input argument (x), got 2");
    EXPECT_EQ(bind_error(p, {array(kiln::float32), array(kiln::float32)},
                         {array(kiln::float32), array(kiln::float32)}),
              "kiln: kernel 'k': expected at most 1 output argument (z), got 2");
    EXPECT_EQ(bind_error(p, {array(kiln::float32), absent()}),
              "kiln: kernel 'k': in_params 'y' got no argument (expected an array or a scalar)");
    EXPECT_EQ(bind_error(p, {array(kiln::float32), array(kiln::float32)}, {scalar(kiln::float32)}),
              "kiln: kernel 'k': out_params 'z' got a scalar (expected an output array, or none to "
              "have one allocated)");
}

TEST(TypeBinding, InvalidArgumentValuesAreTypeErrors) {
    const Params p = params("T x", "T z");
    EXPECT_EQ(bind_error(p, {array(static_cast<DType>(99))}),
              "kiln: kernel 'k': in_params 'x': invalid DType value 99: expected 0..13 "
              "(kiln::bool_ .. kiln::complex128)");
    EXPECT_EQ(bind_error(p, {{static_cast<ArgumentType::Kind>(7), kiln::float32}}),
              "kiln: kernel 'k': in_params 'x': invalid ArgumentType::Kind value 7 (expected "
              "array, scalar or absent)");
}

TEST(TypeBinding, ResolvedDtype) {
    const Params p = params("float32 x, T y, raw U w", "T z");
    const Binding binding = bind(p, {array(kiln::float32), array(kiln::int64), array(kiln::bool_)});
    EXPECT_EQ(binding, (Binding{{"T", kiln::int64}, {"U", kiln::bool_}}));
    EXPECT_EQ(resolved_dtype(p.in[0], binding), kiln::float32);
    EXPECT_EQ(resolved_dtype(p.in[1], binding), kiln::int64);
    EXPECT_EQ(resolved_dtype(p.in[2], binding), kiln::bool_);
    EXPECT_EQ(resolved_dtype(p.out[0], binding), kiln::int64);
    // A fixed dtype needs no binding; a placeholder outside the binding is an error.
    EXPECT_EQ(resolved_dtype(p.in[0], {}), kiln::float32);
    try {
        (void)resolved_dtype(p.in[2], {{"T", kiln::int64}});
        ADD_FAILURE() << "no exception";
    } catch (const kiln::TypeError& e) {
        EXPECT_STREQ(e.what(),
                     "kiln: resolved_dtype: type placeholder 'U' of parameter 'w' is not bound "
                     "(expected a binding from bind_types for the same parameters)");
    }
}

}  // namespace
