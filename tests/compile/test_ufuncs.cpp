// Every ufunc's kernel compiles, with no device, for each kind of loop dtype it takes (bool, the
// narrowest and widest integers, float16 through float, float64 and complex64), and for inputs
// of mixed dtypes that take float16's and complex's conversions; a kind it does not take is a
// TypeError before any device is touched.
#include "core/compile/compile_cache.hpp"
#include "core/routines/ufunc_call.hpp"
#include "core/routines/ufunc_table.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using kiln::DType;
using kiln::Scalar;
using kiln::detail::UfuncDefinition;

Scalar one_of(DType dtype) {
    switch (dtype) {
        case DType::bool_:
            return Scalar(true);
        case DType::int8:
            return Scalar(static_cast<std::int8_t>(1));
        case DType::int64:
            return Scalar(std::int64_t{1});
        case DType::uint64:
            return Scalar(std::uint64_t{1});
        case DType::float16:
            return Scalar(kiln::half(1.0F));
        case DType::float32:
            return Scalar(1.0F);
        case DType::float64:
            return Scalar(1.0);
        case DType::complex64:
            return Scalar(std::complex<float>(1.0F, 2.0F));
        default:
            return Scalar(std::complex<double>(1.0, 2.0));
    }
}

bool takes(const UfuncDefinition& ufunc, DType loop) {
    switch (kind(loop)) {
        case 'b':
            return !ufunc.boolean.empty();
        case 'i':
        case 'u':
            return !ufunc.integer.empty();
        case 'f':
            return !ufunc.floating.empty();
        default:
            return !ufunc.complex.empty();
    }
}

// Compiles `ufunc` on loop dtype `loop` for inputs of dtypes `inputs`.
void expect_compiles(const UfuncDefinition& ufunc, DType loop, const std::vector<DType>& inputs) {
    SCOPED_TRACE(std::string(ufunc.name) + " loop " + std::string(kiln::name(loop)));
    std::vector<kiln::Argument> args;
    for (const DType dtype : inputs) {
        args.emplace_back(one_of(dtype));
    }
    const auto& kernel =
        kiln::detail::ufunc_kernel(ufunc, loop, kiln::detail::output_dtype(ufunc, loop));
    const std::string source = kernel.source(args, {.size = 1});
    const auto target = kiln::test::compile_targets().front();
    const auto binary = kiln::detail::compile_uncached({source, kernel.name(), {}, {}}, target);
    EXPECT_EQ(kiln::test::read_elf(binary.image).machine, kiln::test::elf_machine());
}

TEST(Ufuncs, EveryUfuncCompilesForEachKindItTakes) {
    const std::vector<DType> loops = {DType::bool_,   DType::int8,    DType::uint64,
                                      DType::float16, DType::float64, DType::complex64};
    for (const UfuncDefinition* ufunc : kiln::detail::ufuncs::all) {
        for (const DType loop : loops) {
            if (takes(*ufunc, loop)) {
                expect_compiles(*ufunc, loop, std::vector<DType>(ufunc->arity, loop));
            }
        }
    }
}

TEST(Ufuncs, MixedInputsConvertToTheLoopDtype) {
    namespace ufuncs = kiln::detail::ufuncs;
    expect_compiles(ufuncs::add, DType::complex64, {DType::float16, DType::complex64});
    expect_compiles(ufuncs::add, DType::float16, {DType::bool_, DType::float16});
    expect_compiles(ufuncs::multiply, DType::complex128, {DType::int64, DType::complex128});
    expect_compiles(ufuncs::less, DType::float64, {DType::uint64, DType::int64});
    expect_compiles(ufuncs::true_divide, DType::float64, {DType::int8, DType::uint64});
}

TEST(Ufuncs, AKindAUfuncDoesNotTakeIsATypeErrorBeforeTheDevice) {
    const auto expect_type_error = [](auto call, const std::string& ufunc) {
        try {
            (void)call();
            ADD_FAILURE() << "expected kiln::TypeError from " << ufunc;
        } catch (const kiln::TypeError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("kiln: " + ufunc + ": "), std::string::npos) << what;
            EXPECT_NE(what.find("it takes"), std::string::npos) << what;
        }
    };
    expect_type_error([] { return kiln::subtract(true, false); }, "subtract");
    expect_type_error([] { return kiln::left_shift(1.5, 2); }, "left_shift");
    expect_type_error([] { return kiln::floor_divide(std::complex<double>(1, 1), 2.0); },
                      "floor_divide");
    expect_type_error([] { return kiln::sin(std::complex<float>(1, 1)); }, "sin");
    expect_type_error([] { return kiln::bitwise_and(1.0F, 2.0F); }, "bitwise_and");
}

TEST(Ufuncs, ARequestedDtypeTheInputsCannotReachIsATypeError) {
    try {
        (void)kiln::add(1.5, 2.5, {.dtype = kiln::int32});
        ADD_FAILURE() << "expected kiln::TypeError";
    } catch (const kiln::TypeError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("kiln: add: argument 1 of dtype float64 cannot be cast to the "
                            "requested dtype int32"),
                  std::string::npos)
            << what;
    }
}

}  // namespace
