// kiln::fuse without a device: what a trace records (nodes, shared subexpressions, NEP 50
// dtypes), the key that selects a kernel, the kernel text it defines, and the errors for what
// cannot be fused.
#include "core/fusion/graph.hpp"
#include "core/routines/ufunc_table.hpp"
#include "tests/support/fuse_trace.hpp"

#include <kiln/error.hpp>
#include <kiln/fuse.hpp>

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using kiln::DType;
using kiln::ndarray;
using kiln::detail::FusedDefinition;
using kiln::detail::Graph;
using kiln::detail::Node;
using kiln::detail::NodeKind;
using kiln::fusion::Var;

ndarray array_of(DType dtype, std::size_t ndim) {
    return kiln::test::memoryless_array(dtype, ndim);
}

// The kernel `f` defines for arguments like `args`.
template <class F, class... A>
FusedDefinition define(const F& f, const A&... args) {
    return kiln::test::trace("fused", f, args...).fused;
}

Node argument(NodeKind kind, DType dtype, std::int32_t position) {
    Node node;
    node.kind = kind;
    node.dtype = dtype;
    node.argument = position;
    return node;
}

TEST(FuseTrace, RecordsEachOperationOnceAndSharesRepeatedOnes) {
    Graph graph("squared_diff");
    const kiln::detail::TraceScope scope(graph);
    const Var x(graph.add(argument(NodeKind::array, DType::float32, 0)));
    const Var y(graph.add(argument(NodeKind::array, DType::float32, 1)));
    const Var d = (x - y) * (x - y);
    // x, y, one subtract (computed once though written twice), one multiply.
    ASSERT_EQ(graph.size(), 4U);
    const Node& product = graph.node(d.node());
    EXPECT_EQ(product.kind, NodeKind::ufunc);
    EXPECT_EQ(product.ufunc->name, "multiply");
    EXPECT_EQ(product.operands[0], product.operands[1]);
    const Node& difference = graph.node(product.operands[0]);
    EXPECT_EQ(difference.ufunc->name, "subtract");
    EXPECT_EQ(difference.operands[0], x.node());
    EXPECT_EQ(difference.operands[1], y.node());
    EXPECT_EQ(product.dtype, DType::float32);
    // The same constant is one node; another value is another.
    const Var a = x * 2.0;
    const Var b = x * 2.0;
    const Var c = x * 3.0;
    EXPECT_EQ(a.node(), b.node());
    EXPECT_NE(a.node(), c.node());
}

TEST(FuseTrace, DtypesFollowTheEagerRules) {
    Graph graph("dtypes");
    const kiln::detail::TraceScope scope(graph);
    const Var f32(graph.add(argument(NodeKind::array, DType::float32, 0)));
    const Var i32(graph.add(argument(NodeKind::array, DType::int32, 1)));
    const Var i8(graph.add(argument(NodeKind::array, DType::int8, 2)));
    const Var f16(graph.add(argument(NodeKind::array, DType::float16, 3)));
    const Var s64(graph.add(argument(NodeKind::scalar, DType::int64, 4)));
    const Var c128(graph.add(argument(NodeKind::scalar, DType::complex128, 5)));
    const auto dtype = [&](const Var& v) { return graph.node(v.node()).dtype; };
    // NumPy 2 (NEP 50): a C++ number takes the array's dtype unless its kind is higher.
    EXPECT_EQ(dtype(f32 * 2.0), DType::float32);
    EXPECT_EQ(dtype(i8 + s64), DType::int8);
    EXPECT_EQ(dtype(i8 + 1.5), DType::float64);
    EXPECT_EQ(dtype(f32 * c128), DType::complex64);
    EXPECT_EQ(dtype(i32 + f32), DType::float64);
    EXPECT_EQ(dtype(i32 / i32), DType::float64);
    EXPECT_EQ(dtype(i8 < 3), DType::bool_);
    EXPECT_EQ(dtype(kiln::sqrt(i8)), DType::float16);
    EXPECT_EQ(dtype(kiln::exp(f16)), DType::float16);
    EXPECT_EQ(dtype(kiln::absolute(f32 * c128)), DType::float32);
    EXPECT_EQ(dtype(kiln::where(i8 > 0, i32, 1.0)), DType::float64);
    EXPECT_EQ(dtype(f32.astype(DType::int16)), DType::int16);
    // sum of small integers accumulates and returns int64; mean of integers is float64.
    EXPECT_EQ(dtype(kiln::sum(i8)), DType::int64);
}

TEST(FuseTrace, EveryUfuncOfTheTableTraces) {
    Graph graph("every_ufunc");
    const kiln::detail::TraceScope scope(graph);
    const Var f64(graph.add(argument(NodeKind::array, DType::float64, 0)));
    const Var i32(graph.add(argument(NodeKind::array, DType::int32, 1)));
    for (const kiln::detail::UfuncDefinition* ufunc : kiln::detail::ufuncs::all) {
        SCOPED_TRACE(std::string(ufunc->name));
        // Bitwise operations and shifts take integers; everything else takes float64.
        const Var x = ufunc->floating.empty() ? i32 : f64;
        const std::size_t before = graph.size();
        Var traced(-1);
        switch (ufunc->arity) {
            case 1:
                traced = kiln::fusion::trace_ufunc(ufunc->name, {x});
                break;
            case 2:
                traced = kiln::fusion::trace_ufunc(ufunc->name, {x, x});
                break;
            default:
                traced = kiln::fusion::trace_ufunc(ufunc->name, {x, x, x});
                break;
        }
        EXPECT_EQ(graph.node(traced.node()).ufunc, ufunc);
        EXPECT_EQ(graph.size(), before + 1);
    }
    // The header's names reach the same rows: divide is true_divide, operators their ufuncs.
    EXPECT_EQ(graph.node(kiln::divide(f64, 2.0).node()).ufunc->name, "true_divide");
    EXPECT_EQ(graph.node((i32 << 1).node()).ufunc->name, "left_shift");
    EXPECT_EQ(graph.node((!f64).node()).ufunc->name, "logical_not");
    EXPECT_EQ(graph.node(kiln::clip(f64, 0.0, 1.0).node()).ufunc->name, "clip");
}

TEST(FuseTrace, MeanOfIntegersIsFloat64AndMaxKeepsTheDtype) {
    const auto mean = [](auto x) { return kiln::mean(x, 0); };
    const auto max = [](auto x) { return kiln::max(x * x, -1, true); };
    EXPECT_EQ(define(mean, array_of(DType::int32, 2)).out_params, "float64 out0");
    const FusedDefinition kept = define(max, array_of(DType::float16, 2));
    EXPECT_EQ(kept.out_params, "float16 out0");
    EXPECT_TRUE(kept.keepdims);
    ASSERT_EQ(kept.axis.axes().size(), 1U);
    EXPECT_EQ(kept.axis.axes()[0], -1);
    EXPECT_EQ(kept.identity, "");  // max has none: an empty reduction is an error
}

TEST(FuseTrace, KeyTellsDtypesRanksAndScalarKindsApartButNotValues) {
    using kiln::detail::fusion_key;
    const ndarray a = array_of(DType::float32, 2);
    EXPECT_EQ(fusion_key(a, 2.0), fusion_key(array_of(DType::float32, 2), 3.5));
    EXPECT_EQ(fusion_key(a, 1), fusion_key(a, -7));
    EXPECT_NE(fusion_key(a, 2.0), fusion_key(array_of(DType::float64, 2), 2.0));
    EXPECT_NE(fusion_key(a, 2.0), fusion_key(array_of(DType::float32, 3), 2.0));
    EXPECT_NE(fusion_key(a, 2.0), fusion_key(a, 2.0F));
    EXPECT_NE(fusion_key(a, 2.0), fusion_key(a, 2));
    EXPECT_NE(fusion_key(a, 2.0), fusion_key(a, std::complex<double>(2.0, 0.0)));
    EXPECT_NE(fusion_key(a, a), fusion_key(a));
    // An array and a scalar of one dtype differ.
    EXPECT_NE(fusion_key(array_of(DType::float64, 0)), fusion_key(1.0));
}

TEST(FuseTrace, ElementwiseDefinitionTakesTheArgumentsAndWritesEachOutput) {
    const auto both = [](auto x, auto y, auto s) { return std::tuple(x * s + y, x - y); };
    const FusedDefinition fused =
        define(both, array_of(DType::float32, 1), array_of(DType::float32, 2), 2.0);
    EXPECT_FALSE(fused.reduction);
    EXPECT_EQ(fused.in_params, "float32 in0, float32 in1, float64 in2");
    EXPECT_EQ(fused.out_params, "float32 out0, float32 out1");
    EXPECT_EQ(fused.arguments, (std::vector<std::int32_t>{0, 1, 2}));
    EXPECT_NE(fused.operation.find("out0 = _t"), std::string::npos);
    EXPECT_NE(fused.operation.find("out1 = _t"), std::string::npos);
    // The ufunc table's own text: float32 computes in float32.
    EXPECT_NE(fused.operation.find("typedef float kiln_s; typedef float kiln_t;"),
              std::string::npos);
}

TEST(FuseTrace, AnArgumentNeverReadIsNotTaken) {
    const auto first = [](auto x, auto /*y*/) { return x + 1; };
    const FusedDefinition fused =
        define(first, array_of(DType::int32, 1), array_of(DType::int32, 3));
    EXPECT_EQ(fused.arguments, (std::vector<std::int32_t>{0}));
    EXPECT_EQ(fused.in_params, "int32 in0");
}

TEST(FuseTrace, AnIntegerScalarIsDeclaredInTheLoopDtypeItEnters) {
    // So that the kernel refuses a value int8 cannot hold, as eager kiln::add does.
    const auto add = [](auto x, auto s) { return x + s; };
    EXPECT_EQ(define(add, array_of(DType::int8, 1), std::int64_t{5}).in_params,
              "int8 in0, int8 in1");
    EXPECT_EQ(define(add, array_of(DType::float32, 1), std::int64_t{5}).in_params,
              "float32 in0, int64 in1");
}

TEST(FuseTrace, ReductionFusesTheMapBeforeAndThePostMapAfter) {
    const auto norm = [](auto x) { return kiln::sqrt(kiln::sum(x * x, -1)); };
    const FusedDefinition fused = define(norm, array_of(DType::float64, 2));
    EXPECT_TRUE(fused.reduction);
    EXPECT_EQ(fused.in_params, "float64 in0");
    EXPECT_EQ(fused.out_params, "float64 out0");
    EXPECT_NE(fused.map_expr.find("kiln_fused_map(in0)"), std::string::npos) << fused.map_expr;
    EXPECT_NE(fused.preamble.find("kiln_fused_map"), std::string::npos);
    EXPECT_NE(fused.preamble.find("a * b"), std::string::npos);  // multiply, in the map
    EXPECT_NE(fused.post_map_expr.find("kiln::ufunc::sqrt"), std::string::npos);
    EXPECT_EQ(fused.post_map_expr.find("a * b"), std::string::npos);
    EXPECT_EQ(fused.reduce_expr, "kiln::ufunc::add(a, b)");
    EXPECT_EQ(fused.identity, "0");
    EXPECT_FALSE(fused.axis.all());
}

TEST(FuseTrace, ScalarsAloneMakeOneElement) {
    const auto product = [](auto x, auto y) { return x * y; };
    const FusedDefinition fused = define(product, 2.0, 3);
    EXPECT_TRUE(fused.scalars_only);
    EXPECT_EQ(fused.out_params, "float64 out0");
}

template <class Error, class F>
std::string error_of(const F& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    ADD_FAILURE() << "no error";
    return {};
}

TEST(FuseTrace, AnExpressionPastTheSizeLimitIsAnError) {
    const auto long_sum = [](auto x) {
        for (int i = 0; i < 600; ++i) {
            x = x + static_cast<double>(i);
        }
        return x;
    };
    const std::string message =
        error_of<kiln::ValueError>([&] { (void)define(long_sum, array_of(DType::float64, 1)); });
    EXPECT_NE(message.find("more than 1000 nodes"), std::string::npos) << message;
    EXPECT_NE(message.find("kiln::fuse: fused"), std::string::npos) << message;
    // Below the limit it traces: two nodes an iteration, a constant and an add.
    const auto short_sum = [](auto x) {
        for (int i = 0; i < 450; ++i) {
            x = x + static_cast<double>(i);
        }
        return x;
    };
    EXPECT_NO_THROW((void)define(short_sum, array_of(DType::float64, 1)));
}

TEST(FuseTrace, UnsupportedOperationsAreErrorsNamingThem) {
    const auto every = [](auto x) { return kiln::all(x); };
    std::string message =
        error_of<kiln::TypeError>([&] { (void)define(every, array_of(DType::float32, 1)); });
    EXPECT_NE(message.find("'all' cannot be fused"), std::string::npos) << message;
    const auto nan_var = [](auto x) { return kiln::nanvar(x, 0); };
    message =
        error_of<kiln::TypeError>([&] { (void)define(nan_var, array_of(DType::float32, 1)); });
    EXPECT_NE(message.find("'nanvar' cannot be fused"), std::string::npos) << message;
    // argmax takes one axis or all, as eagerly.
    const auto arg = [](auto x) { return kiln::argmax(x, kiln::Axis{0, 1}); };
    message = error_of<kiln::TypeError>([&] { (void)define(arg, array_of(DType::float32, 2)); });
    EXPECT_NE(message.find("argmax: takes one axis or every axis"), std::string::npos) << message;
    // A ufunc that does not take the dtype, as eagerly.
    const auto bits = [](auto x) { return x & 1; };
    message = error_of<kiln::TypeError>([&] { (void)define(bits, array_of(DType::float32, 1)); });
    EXPECT_NE(message.find("bitwise_and"), std::string::npos) << message;
    EXPECT_NE(message.find("float32"), std::string::npos) << message;
    // A reduction option a fused reduction has no place for.
    const auto typed = [](auto x) { return kiln::sum(x, {.dtype = DType::float64}); };
    message = error_of<kiln::TypeError>([&] { (void)define(typed, array_of(DType::float32, 1)); });
    EXPECT_NE(message.find("dtype"), std::string::npos) << message;
    // A weak scalar int8 cannot hold, written in the function.
    const auto wide = [](auto x) { return x + 1000; };
    message = error_of<kiln::TypeError>([&] { (void)define(wide, array_of(DType::int8, 1)); });
    EXPECT_NE(message.find("int8"), std::string::npos) << message;
    // int64 with uint64 compares exactly eagerly; fused, it would compare in float64 and round.
    const auto less = [](auto x, auto y) { return x < y; };
    message = error_of<kiln::TypeError>(
        [&] { (void)define(less, array_of(DType::int64, 1), array_of(DType::uint64, 1)); });
    EXPECT_EQ(message,
              "kiln::fuse: fused: less: cannot compare integers of mixed signedness "
              "exactly (int64 with uint64); call it outside kiln::fuse");
    // Arithmetic on them promotes to float64 there as eagerly, and traces.
    const auto sum = [](auto x, auto y) { return x + y; };
    (void)define(sum, array_of(DType::int64, 1), array_of(DType::uint64, 1));
}

TEST(FuseTrace, ASecondReductionIsAnErrorNamingIt) {
    const auto two = [](auto x) {
        const auto total = kiln::sum(x);
        return total + kiln::max(x);
    };
    const std::string message =
        error_of<kiln::TypeError>([&] { (void)define(two, array_of(DType::float32, 1)); });
    EXPECT_NE(message.find("'max' is a second reduction (after 'sum')"), std::string::npos)
        << message;
    // The same reduction written twice is one.
    const auto twice = [](auto x) { return kiln::sum(x, 0) * kiln::sum(x, 0); };
    EXPECT_TRUE(define(twice, array_of(DType::float32, 1)).reduction);
}

TEST(FuseTrace, AReducedValueCombinedWithAnArrayIsAnError) {
    const auto centred = [](auto x) { return x - kiln::mean(x); };
    const std::string message =
        error_of<kiln::TypeError>([&] { (void)define(centred, array_of(DType::float32, 1)); });
    EXPECT_NE(message.find("'subtract' combines the reduction's result with an array"),
              std::string::npos)
        << message;
    // Several results with a reduction among them.
    const auto pair = [](auto x) { return std::tuple(kiln::sum(x), kiln::sum(x) * 2.0); };
    const std::string several =
        error_of<kiln::TypeError>([&] { (void)define(pair, array_of(DType::float32, 1)); });
    EXPECT_NE(several.find("returns one value"), std::string::npos) << several;
}

TEST(FuseTrace, ATracedValueKeptPastItsTraceIsAnError) {
    std::unique_ptr<Var> kept;
    const auto keep = [&](auto x) {
        kept = std::make_unique<Var>(x);
        return x;
    };
    (void)define(keep, array_of(DType::float32, 1));
    ASSERT_NE(kept, nullptr);
    const std::string message = error_of<kiln::Error>([&] { (void)(*kept + 1.0); });
    EXPECT_NE(message.find("outside its fused function's trace"), std::string::npos) << message;
}

}  // namespace
