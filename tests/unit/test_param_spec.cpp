// The parameter-list grammar of ElementwiseKernel and ReductionKernel against CuPy's documented
// syntax ("[raw] [_non_const] TYPE NAME", comma separated; one-letter TYPEs are placeholders,
// other TYPEs NumPy dtype names), and every error with its full message.
#include "core/kernels/param_spec.hpp"

#include <kiln/dtype.hpp>
#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

namespace {

using kiln::DType;
using kiln::detail::check_kernel_params;
using kiln::detail::is_identifier;
using kiln::detail::is_reserved_name;
using kiln::detail::KernelKind;
using kiln::detail::ParamSpec;
using kiln::detail::parse_params;

constexpr KernelKind elementwise = KernelKind::elementwise;
constexpr KernelKind reduction = KernelKind::reduction;

std::vector<ParamSpec> parse_in(std::string_view text, KernelKind kind = elementwise) {
    return parse_params(text, "add", "in_params", kind);
}

ParamSpec fixed(std::string name, DType dtype, std::string type_text, bool raw = false,
                bool non_const = false) {
    return {std::move(name), dtype, "", raw, non_const, std::move(type_text)};
}

ParamSpec placeholder(std::string name, std::string letter, bool raw = false,
                      bool non_const = false) {
    std::string type_text = letter;
    return {std::move(name), std::nullopt, std::move(letter), raw, non_const, std::move(type_text)};
}

void expect_specs(const std::vector<ParamSpec>& actual, const std::vector<ParamSpec>& expected) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t index = 0; index < actual.size(); ++index) {
        SCOPED_TRACE("entry " + std::to_string(index + 1));
        EXPECT_EQ(actual[index].name, expected[index].name);
        EXPECT_EQ(actual[index].dtype, expected[index].dtype);
        EXPECT_EQ(actual[index].placeholder, expected[index].placeholder);
        EXPECT_EQ(actual[index].raw, expected[index].raw);
        EXPECT_EQ(actual[index].non_const, expected[index].non_const);
        EXPECT_EQ(actual[index].type_text, expected[index].type_text);
    }
}

// The message of the exception `run` throws, which must be exactly of type E.
template <class E>
std::string message_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const kiln::Error& e) {
        EXPECT_EQ(typeid(e), typeid(E)) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no exception";
    return {};
}

std::string parse_error(std::string_view text, KernelKind kind = elementwise) {
    return message_of<kiln::Error>([&] { (void)parse_in(text, kind); });
}

TEST(ParamSpec, ParsesCuPysExampleList) {
    expect_specs(parse_in("T x, raw T y, float32 alpha"),
                 {placeholder("x", "T"), placeholder("y", "T", /*raw=*/true),
                  fixed("alpha", kiln::float32, "float32")});
}

TEST(ParamSpec, ToleratesWhitespaceAroundWordsAndCommas) {
    const std::vector<ParamSpec> expected{placeholder("x", "T"), placeholder("y", "T", true),
                                          fixed("alpha", kiln::float32, "float32")};
    expect_specs(parse_in("T x,raw T y,float32 alpha"), expected);
    expect_specs(parse_in("  T   x ,\traw\tT  y\n,\r\n float32\f\valpha  \n"), expected);
}

TEST(ParamSpec, BlankTextIsAnEmptyList) {
    EXPECT_TRUE(parse_in("").empty());
    EXPECT_TRUE(parse_in("   ").empty());
    EXPECT_TRUE(parse_in("\n\t ").empty());
}

TEST(ParamSpec, ModifiersComeInEitherOrder) {
    expect_specs(parse_in("_non_const T x, raw _non_const T y, _non_const raw int32 z, raw T w"),
                 {placeholder("x", "T", false, true), placeholder("y", "T", true, true),
                  fixed("z", kiln::int32, "int32", true, true), placeholder("w", "T", true)});
}

TEST(ParamSpec, EveryDtypeNameIsAFixedType) {
    // NumPy's dtype names, and NumPy's alias bool_.
    const std::vector<std::pair<std::string, DType>> names{{"bool", kiln::bool_},
                                                           {"bool_", kiln::bool_},
                                                           {"int8", kiln::int8},
                                                           {"int16", kiln::int16},
                                                           {"int32", kiln::int32},
                                                           {"int64", kiln::int64},
                                                           {"uint8", kiln::uint8},
                                                           {"uint16", kiln::uint16},
                                                           {"uint32", kiln::uint32},
                                                           {"uint64", kiln::uint64},
                                                           {"float16", kiln::float16},
                                                           {"float32", kiln::float32},
                                                           {"float64", kiln::float64},
                                                           {"complex64", kiln::complex64},
                                                           {"complex128", kiln::complex128}};
    for (const auto& [type, dtype] : names) {
        expect_specs(parse_in(type + " v"), {fixed("v", dtype, type)});
    }
}

TEST(ParamSpec, OneLetterTypesArePlaceholders) {
    expect_specs(parse_in("T x, X y, Y z, t w, a u, Z v"),
                 {placeholder("x", "T"), placeholder("y", "X"), placeholder("z", "Y"),
                  placeholder("w", "t"), placeholder("u", "a"), placeholder("v", "Z")});
    // a and b are reserved as reduction parameter names, not as placeholder letters.
    expect_specs(parse_in("a x, b y", reduction), {placeholder("x", "a"), placeholder("y", "b")});
}

TEST(ParamSpec, NamesAreAnyUnreservedIdentifier) {
    expect_specs(
        parse_in("T x1, T camelCase, T snake_case_2, T raw, float32 T, T ii, T a, T b"),
        {placeholder("x1", "T"), placeholder("camelCase", "T"), placeholder("snake_case_2", "T"),
         placeholder("raw", "T"), fixed("T", kiln::float32, "float32"), placeholder("ii", "T"),
         placeholder("a", "T"), placeholder("b", "T")});
}

TEST(ParamSpec, IsIdentifier) {
    for (const std::string_view good : {"x", "_", "_x", "X9", "a_b_c", "abc123", "raw"}) {
        EXPECT_TRUE(is_identifier(good)) << good;
    }
    for (const std::string_view bad :
         {"", "1y", "9", "x-y", "x.y", "x;", "a b", "x[]", "\xc3\xa9", "x\xc3\xa9", "$x"}) {
        EXPECT_FALSE(is_identifier(bad)) << bad;
    }
}

TEST(ParamSpec, IsReservedName) {
    for (const std::string_view name :
         {"i", "_", "_ind", "_in_ind", "_out_ind", "_J", "_type_reduce", "_x", "int", "float",
          "double", "class", "return", "const", "and", "xor_eq", "nullptr", "co_await"}) {
        EXPECT_TRUE(is_reserved_name(name, elementwise)) << name;
        EXPECT_TRUE(is_reserved_name(name, reduction)) << name;
    }
    for (const std::string_view name : {"a", "b"}) {
        EXPECT_FALSE(is_reserved_name(name, elementwise)) << name;
        EXPECT_TRUE(is_reserved_name(name, reduction)) << name;
    }
    for (const std::string_view name : {"x", "ii", "j", "ind", "c", "y_", "T", "main", "float32"}) {
        EXPECT_FALSE(is_reserved_name(name, elementwise)) << name;
        EXPECT_FALSE(is_reserved_name(name, reduction)) << name;
    }
}

TEST(ParamSpec, MalformedEntriesSayWhatWasExpected) {
    EXPECT_EQ(parse_error("T"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 'T': only one word 'T' where TYPE "
              "NAME should be (expected [raw] [_non_const] TYPE NAME)");
    EXPECT_EQ(parse_error("T x, raw"),
              "kiln: ElementwiseKernel 'add': in_params entry 2 'raw': TYPE and NAME are missing "
              "(expected [raw] [_non_const] TYPE NAME)");
    EXPECT_EQ(parse_error("raw T"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 'raw T': only one word 'T' where "
              "TYPE NAME should be (expected [raw] [_non_const] TYPE NAME)");
    EXPECT_EQ(parse_error("T x y"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 'T x y': 3 words 'T x y' where "
              "TYPE NAME should be (expected [raw] [_non_const] TYPE NAME; only raw and "
              "_non_const may come before TYPE, and entries are separated by commas)");
    EXPECT_EQ(parse_error("raw const  T\tx"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 'raw const  T\tx': 3 words "
              "'const T x' where TYPE NAME should be (expected [raw] [_non_const] TYPE NAME; only "
              "raw and _non_const may come before TYPE, and entries are separated by commas)");
    EXPECT_EQ(parse_error("raw raw T x"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 'raw raw T x': 'raw' is given "
              "twice (expected [raw] [_non_const] TYPE NAME)");
    EXPECT_EQ(parse_error("_non_const raw _non_const T x"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 '_non_const raw _non_const T x': "
              "'_non_const' is given twice (expected [raw] [_non_const] TYPE NAME)");
}

TEST(ParamSpec, EmptyEntriesAreErrors) {
    const std::string expected_tail =
        "'': the entry is empty (expected [raw] [_non_const] TYPE NAME between commas)";
    EXPECT_EQ(parse_error(", ,"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 " + expected_tail);
    EXPECT_EQ(parse_error("T x, , T y"),
              "kiln: ElementwiseKernel 'add': in_params entry 2 " + expected_tail);
    EXPECT_EQ(parse_error("T x,"),
              "kiln: ElementwiseKernel 'add': in_params entry 2 " + expected_tail);
    EXPECT_EQ(parse_error(",T x"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 " + expected_tail);
}

TEST(ParamSpec, UnknownDtypeIsATypeError) {
    const std::string tail =
        "is not a dtype name or a type placeholder (expected one letter such as T, or one of "
        "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, "
        "float64, complex64, complex128)";
    EXPECT_EQ(message_of<kiln::TypeError>([] { (void)parse_in("T x, float33 y"); }),
              "kiln: ElementwiseKernel 'add': in_params entry 2 'float33 y': 'float33' " + tail);
    // C type names, multi-letter placeholders and pointers are not TYPEs.
    for (const std::string_view type : {"float", "int", "TT", "T1", "_T", "T*", "Float32", "1"}) {
        const std::string message =
            message_of<kiln::TypeError>([&] { (void)parse_in(std::string(type) + " x"); });
        EXPECT_EQ(message, "kiln: ElementwiseKernel 'add': in_params entry 1 '" +
                               std::string(type) + " x': '" + std::string(type) + "' " + tail);
    }
}

TEST(ParamSpec, InvalidNamesAreErrors) {
    EXPECT_EQ(parse_error("T x, raw T 1y"),
              "kiln: ElementwiseKernel 'add': in_params entry 2 'raw T 1y': '1y' is not a valid "
              "parameter name (expected a C identifier)");
    for (const std::string_view name : {"x-y", "x;", "y[3]", "x.y", "\xc3\xa9t\xc3\xa9"}) {
        EXPECT_EQ(parse_error("float64 " + std::string(name)),
                  "kiln: ElementwiseKernel 'add': in_params entry 1 'float64 " + std::string(name) +
                      "': '" + std::string(name) +
                      "' is not a valid parameter name (expected a C identifier)");
    }
}

TEST(ParamSpec, ReservedNamesAreErrors) {
    const std::string expected =
        "(expected a name other than i, a C++ keyword or one starting "
        "with '_')";
    EXPECT_EQ(parse_error("T i"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 'T i': 'i' is reserved: it is the "
              "element index of generated code " +
                  expected);
    EXPECT_EQ(parse_error("T x, T _ind"),
              "kiln: ElementwiseKernel 'add': in_params entry 2 'T _ind': '_ind' is reserved: "
              "names starting with '_' belong to kiln's generated code " +
                  expected);
    EXPECT_EQ(parse_error("int32 int"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 'int32 int': 'int' is reserved: "
              "it is a C++ keyword " +
                  expected);
    EXPECT_EQ(parse_error("T not"),
              "kiln: ElementwiseKernel 'add': in_params entry 1 'T not': 'not' is reserved: it is "
              "a C++ keyword " +
                  expected);
    EXPECT_EQ(
        message_of<kiln::Error>(
            [] { (void)parse_params("T x, T b", "l2norm", "in_params", reduction); }),
        "kiln: ReductionKernel 'l2norm': in_params entry 2 'T b': 'b' is reserved: a and b are "
        "the operands of a reduction (expected a name other than i, a, b, a C++ keyword or one "
        "starting with '_')");
    EXPECT_EQ(
        message_of<kiln::Error>(
            [] { (void)parse_params("T a", "l2norm", "out_params", reduction); }),
        "kiln: ReductionKernel 'l2norm': out_params entry 1 'T a': 'a' is reserved: a and b are "
        "the operands of a reduction (expected a name other than i, a, b, a C++ keyword or one "
        "starting with '_')");
}

TEST(ParamSpec, DuplicateNamesInOneListAreErrors) {
    EXPECT_EQ(message_of<kiln::Error>([] {
                  (void)parse_params("T z, float32 w, T z", "f", "out_params", elementwise);
              }),
              "kiln: ElementwiseKernel 'f': out_params entry 3 'T z': 'z' is already the name of "
              "out_params entry 1 (expected unique parameter names)");
}

TEST(ParamSpec, CuPysDocumentedKernelsAreValid) {
    struct Kernel {
        std::string_view name, in, out;
        KernelKind kind;
    };
    // The kernels of CuPy's user guide ("User-Defined Kernels").
    for (const Kernel& kernel : {
             Kernel{"squared_diff", "float32 x, float32 y", "float32 z", elementwise},
             Kernel{"squared_diff_generic", "T x, T y", "T z", elementwise},
             Kernel{"sqdiff_super_generic", "X x, Y y", "Z z", elementwise},
             Kernel{"add_reverse", "T x, raw T y", "T z", elementwise},
             Kernel{"l2norm", "T x", "T y", reduction},
         }) {
        SCOPED_TRACE(kernel.name);
        const auto in = parse_params(kernel.in, kernel.name, "in_params", kernel.kind);
        const auto out = parse_params(kernel.out, kernel.name, "out_params", kernel.kind);
        EXPECT_NO_THROW(check_kernel_params(kernel.name, in, out, kernel.kind));
    }
    expect_specs(parse_in("X x, Y y"), {placeholder("x", "X"), placeholder("y", "Y")});
}

TEST(ParamSpec, NamesMustBeUniqueAcrossLists) {
    const auto in = parse_in("T x, float32 y");
    const auto out = parse_params("raw T y", "add", "out_params", elementwise);
    EXPECT_EQ(message_of<kiln::Error>([&] { check_kernel_params("add", in, out, elementwise); }),
              "kiln: ElementwiseKernel 'add': out_params entry 1 'raw T y': 'y' is already the "
              "name of in_params entry 2 (expected unique parameter names)");
}

TEST(ParamSpec, KernelNameMustBeAnIdentifier) {
    const auto in = parse_in("T x");
    const auto out = parse_params("T z", "add", "out_params", elementwise);
    EXPECT_NO_THROW(check_kernel_params("my_kernel2", in, out, elementwise));
    for (const std::string_view name : {"", "1add", "my-kernel", "add kernel", "int", "while"}) {
        EXPECT_EQ(
            message_of<kiln::Error>([&] { check_kernel_params(name, in, out, reduction); }),
            "kiln: ReductionKernel '" + std::string(name) + "': '" + std::string(name) +
                "' is not a valid kernel name (expected a C identifier that is not a C++ keyword)");
    }
}

TEST(ParamSpec, ParameterNamedLikeAPlaceholderIsAnError) {
    const auto in = parse_in("T x, float32 X");
    const auto out = parse_params("X z", "f", "out_params", elementwise);
    EXPECT_EQ(message_of<kiln::Error>([&] { check_kernel_params("f", in, out, elementwise); }),
              "kiln: ElementwiseKernel 'f': in_params entry 2 'float32 X': 'X' is a type "
              "placeholder of this kernel (expected a parameter name that no entry uses as its "
              "TYPE)");
    // Without a placeholder X, a parameter may be called X.
    EXPECT_NO_THROW(check_kernel_params("f", in, parse_in("T z"), elementwise));
}

TEST(ParamSpec, CheckCatchesReservedNamesInHandMadeLists) {
    const std::vector<ParamSpec> in{placeholder("x", "T")};
    const std::vector<ParamSpec> out{fixed("a", kiln::float64, "float64", /*raw=*/true)};
    EXPECT_NO_THROW(check_kernel_params("f", in, out, elementwise));
    EXPECT_EQ(message_of<kiln::Error>([&] { check_kernel_params("f", in, out, reduction); }),
              "kiln: ReductionKernel 'f': out_params entry 1 'raw float64 a': 'a' is reserved: a "
              "and b are the operands of a reduction (expected a name other than i, a, b, a C++ "
              "keyword or one starting with '_')");
    const std::vector<ParamSpec> twice{placeholder("x", "T", false, true), placeholder("x", "T")};
    EXPECT_EQ(message_of<kiln::Error>([&] { check_kernel_params("f", twice, {}, elementwise); }),
              "kiln: ElementwiseKernel 'f': in_params entry 2 'T x': 'x' is already the name of "
              "in_params entry 1 (expected unique parameter names)");
}

}  // namespace
