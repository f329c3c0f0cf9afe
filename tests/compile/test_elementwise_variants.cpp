// Every variant class of the seed ElementwiseKernels compiles for the sweep targets, with no
// device. Variants are built by hand as data (kiln::detail::ElementwiseVariant) and compiled many
// to a module, one module per seed and target, to keep compile time low. Each kernel's symbol must
// be in the code object; on AMDGPU its metadata must also place the explicit arguments exactly
// where kiln's host-side packing puts them.
#include "core/backend.hpp"
#include "core/compile/compile_cache.hpp"
#include "core/kernels/elementwise/elementwise_arguments.hpp"
#include "core/kernels/elementwise/elementwise_variant.hpp"
#include "dialects/gpu/elementwise.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/elementwise_kernel.hpp>
#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using kiln::DType;
using kiln::detail::ArgumentSlot;
using kiln::detail::ElementwiseDefinition;
using kiln::detail::ElementwiseVariant;
using kiln::detail::OperandVariant;
using Kind = OperandVariant::Kind;

const std::vector<DType> all_dtypes = {
    kiln::bool_,   kiln::int8,    kiln::int16,     kiln::int32,     kiln::int64,
    kiln::uint8,   kiln::uint16,  kiln::uint32,    kiln::uint64,    kiln::float16,
    kiln::float32, kiln::float64, kiln::complex64, kiln::complex128};

std::vector<DType> all_but_complex() {
    std::vector<DType> dtypes;
    std::copy_if(all_dtypes.begin(), all_dtypes.end(), std::back_inserter(dtypes),
                 [](DType d) { return kiln::kind(d) != 'c'; });
    return dtypes;
}

// Ways to pass one parameter (the dtype is filled in per variant).
const std::vector<OperandVariant> array_form = {{Kind::array}};
const std::vector<OperandVariant> array_or_scalar = {{Kind::array}, {Kind::scalar}};
const std::vector<OperandVariant> raw_forms = {{Kind::raw, DType::float64, true, 1},
                                               {Kind::raw, DType::float64, false, 1},
                                               {Kind::raw, DType::float64, false, 2},
                                               {Kind::raw, DType::float64, false, 3}};

// A seed kernel, the dtypes its placeholder T takes ({} when it has none), and per parameter the
// forms it is passed in.
struct Seed {
    ElementwiseDefinition definition;
    std::vector<DType> dtypes;
    std::vector<std::vector<OperandVariant>> forms;
};

// The loop classes: a contiguous loop, and strided loops of 1 to 3 collapsed axes.
struct Loop {
    int ndim;
    bool contiguous;
};
constexpr std::array<Loop, 4> loops = {{{1, true}, {1, false}, {2, false}, {3, false}}};

// Dtypes that take every combination in the sampled sweep: one of each item size and kind.
bool representative(DType dtype) {
    return dtype == kiln::bool_ || dtype == kiln::int8 || dtype == kiln::float16 ||
           dtype == kiln::float32 || dtype == kiln::float64 || dtype == kiln::complex128;
}

// Every combination of dtype, loop class, index width and operand forms; when `sampled`, the
// other dtypes take only the first combination (contiguous, 32-bit) and the last (three strided
// axes, 64-bit).
std::vector<ElementwiseVariant> variants_of(const Seed& seed, bool sampled = false) {
    const ElementwiseDefinition& k = seed.definition;
    std::vector<DType> dtypes = seed.dtypes;
    if (dtypes.empty()) {
        dtypes.push_back(DType::float64);  // unused: every parameter has a fixed dtype
    }
    std::vector<ElementwiseVariant> variants;
    for (const DType dtype : dtypes) {
        for (const Loop loop : loops) {
            for (const bool index32 : {true, false}) {
                std::vector<std::size_t> choice(seed.forms.size(), 0);
                while (true) {
                    ElementwiseVariant v{{}, loop.ndim, loop.contiguous, index32};
                    for (std::size_t p = 0; p < choice.size(); ++p) {
                        const auto& spec = p < k.in.size() ? k.in[p] : k.out[p - k.in.size()];
                        OperandVariant op = seed.forms[p][choice[p]];
                        op.dtype = spec.dtype.value_or(dtype);
                        v.operands.push_back(op);
                    }
                    const bool first = loop.contiguous && index32 &&
                                       std::all_of(choice.begin(), choice.end(),
                                                   [](std::size_t c) { return c == 0; });
                    const bool last = loop.ndim == 3 && !index32 &&
                                      std::equal(choice.begin(), choice.end(), seed.forms.begin(),
                                                 [](std::size_t c, const auto& forms) {
                                                     return c + 1 == forms.size();
                                                 });
                    if (!sampled || representative(dtype) || first || last) {
                        variants.push_back(std::move(v));
                    }
                    std::size_t p = 0;
                    while (p < choice.size() && ++choice[p] == seed.forms[p].size()) {
                        choice[p++] = 0;
                    }
                    if (p == choice.size()) {
                        break;
                    }
                }
            }
        }
    }
    return variants;
}

std::string entry_name(const Seed& seed, std::size_t index) {
    return seed.definition.name + "_" + std::to_string(index);
}

// One translation unit with every variant: the support code once, then each variant's kernel in
// its own namespace (its placeholder typedefs differ) under its own entry name.
std::string module_source(const Seed& seed, const std::vector<ElementwiseVariant>& variants) {
    std::string source = kiln::detail::elementwise_support_source();
    for (std::size_t v = 0; v < variants.size(); ++v) {
        source += "namespace kiln_variant_" + std::to_string(v) + " {\n";
        source += kiln::detail::elementwise_kernel_source(seed.definition, variants[v],
                                                          entry_name(seed, v));
        source += "}\n";
    }
    return source;
}

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> packed_args(const ElementwiseVariant& v) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> args;
    for (const ArgumentSlot& slot : kiln::detail::argument_layout(v)) {
        args.emplace_back(slot.offset, slot.size);
    }
    return args;
}

// Compiles every variant of `seed` as one module per sweep target and checks the code objects; the
// first variant is also compiled alone, exactly as a call would compile it.
void expect_every_variant_compiles(const Seed& seed) {
    const auto variants = variants_of(seed, !kiln::test::exhaustive());
    const std::string source = module_source(seed, variants);
    const ElementwiseDefinition& k = seed.definition;
    for (const auto& target : kiln::test::sweep_targets()) {
        SCOPED_TRACE(target);
        const auto binary =
            kiln::detail::compile_uncached({source, k.name, k.options.options, {}}, target);
        const auto elf = kiln::test::read_elf(binary.image);
        EXPECT_EQ(elf.machine, kiln::test::elf_machine());
        if (kiln::test::is_amd()) {
            EXPECT_EQ(elf.amdgpu_kernels.size(), variants.size());
        }
        for (std::size_t v = 0; v < variants.size(); ++v) {
            const std::string name = entry_name(seed, v);
            SCOPED_TRACE(name + " " + kiln::detail::variant_key(variants[v]));
            EXPECT_TRUE(has(elf.symbols, name));
            if (kiln::test::is_nvidia()) {
                continue;
            }
            EXPECT_TRUE(has(elf.symbols, name + ".kd")) << "AMD kernel descriptor missing";
            const auto kernel =
                std::find_if(elf.amdgpu_kernels.begin(), elf.amdgpu_kernels.end(),
                             [&](const kiln::test::AmdgpuKernel& m) { return m.name == name; });
            ASSERT_NE(kernel, elf.amdgpu_kernels.end()) << "no metadata";
            EXPECT_EQ(kiln::test::explicit_args(*kernel), packed_args(variants[v]));
        }
    }
    const auto target = kiln::test::compile_targets().front();
    const auto alone = kiln::detail::compile_uncached(
        {kiln::detail::elementwise_source(k, variants.front()), k.name, k.options.options, {}},
        target);
    EXPECT_TRUE(has(kiln::test::read_elf(alone.image).symbols, k.name));
}

Seed custom_add() {
    return {{"T x, T y", "T z", "z = x + y", "custom_add"},
            all_dtypes,
            {array_form, array_or_scalar, array_form}};
}

Seed squared_diff() {
    return {{"float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", "squared_diff"},
            {},
            {array_form, array_or_scalar, array_form}};
}

// Complex numbers have no order, so no min or max.
Seed clipped_relu() {
    return {{"T x, T lo, T hi", "T y", "y = min(max(x, lo), hi)", "clipped_relu"},
            all_but_complex(),
            {array_form, {{Kind::scalar}}, {{Kind::scalar}}, array_form}};
}

Seed squared_magnitude() {
    return {{"complex128 z", "float64 r", "r = z.real() * z.real() + z.imag() * z.imag()",
             "squared_magnitude"},
            {},
            {array_form, array_form}};
}

// sin, cos and tan of a floating dtype (kiln's prelude has no complex ones; NVRTC finds an
// integer argument ambiguous between the float and double overloads).
Seed sin_cos_tan() {
    return {{"T x", "T s, T c, T t", "s = sin(x); c = cos(x); t = tan(x)", "sin_cos_tan"},
            {kiln::float16, kiln::float32, kiln::float64},
            {array_form, array_form, array_form, array_form}};
}

// Called with the output as the input; complex dtypes take kiln's complex * int.
Seed twice() {
    return {{"T x", "T y", "y = x * 2", "twice"}, all_dtypes, {array_form, array_form}};
}

// A writable input next to a const one: the const one is read ahead, the writable one is not.
Seed write_input() {
    return {{"T x, _non_const T w", "T z", "z = x + w; w = x", "write_input"},
            {kiln::int8, kiln::float32, kiln::float64, kiln::complex128},
            {array_form, array_form, array_form}};
}

Seed reverse() {
    return {{"raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse"},
            all_dtypes,
            {raw_forms, array_form}};
}

TEST(ElementwiseVariants, CustomAddForEveryDtypeLayoutAndScalar) {
    expect_every_variant_compiles(custom_add());
}

TEST(ElementwiseVariants, SquaredDiffForEveryLayoutAndScalar) {
    expect_every_variant_compiles(squared_diff());
}

TEST(ElementwiseVariants, ClippedReluWithScalarBoundsForEveryOrderedDtype) {
    expect_every_variant_compiles(clipped_relu());
}

TEST(ElementwiseVariants, ComplexSquaredMagnitudeForEveryLayout) {
    expect_every_variant_compiles(squared_magnitude());
}

TEST(ElementwiseVariants, SinCosTanWithThreeOutputsForEveryFloatDtype) {
    expect_every_variant_compiles(sin_cos_tan());
}

TEST(ElementwiseVariants, InPlaceTwiceForEveryDtype) {
    expect_every_variant_compiles(twice());
}

TEST(ElementwiseVariants, WritableInputNextToAConstOneForEveryLayout) {
    expect_every_variant_compiles(write_input());
}

TEST(ElementwiseVariants, RawInputContiguousAndStridedForEveryDtype) {
    expect_every_variant_compiles(reverse());
}

// The variant key is the per-kernel cache key: distinct variants must never share one.
TEST(ElementwiseVariants, KeysTellEveryVariantApart) {
    for (const Seed& seed : {custom_add(), clipped_relu(), sin_cos_tan(), reverse()}) {
        const auto variants = variants_of(seed);
        std::set<std::string> keys;
        for (const auto& v : variants) {
            keys.insert(kiln::detail::variant_key(v));
        }
        EXPECT_EQ(keys.size(), variants.size()) << seed.definition.name;
    }
}

std::vector<ArgumentSlot> slots(std::initializer_list<std::pair<std::size_t, std::size_t>> list) {
    std::vector<ArgumentSlot> result;
    for (const auto& [offset, size] : list) {
        result.push_back({offset, size, 0});
    }
    return result;
}

std::vector<ArgumentSlot> without_alignment(std::vector<ArgumentSlot> layout) {
    for (auto& slot : layout) {
        slot.alignment = 0;
    }
    return layout;
}

// Offsets and sizes worked out by hand from the generated parameter lists under the C rules
// (each parameter at the next multiple of its type's alignment): long long _n, kiln_dims<N>
// (8N bytes), long long _row_length and _tile_columns when strided, char* per array plus
// kiln_dims<N> of strides when strided, kiln_raw_c<T> (8) or kiln_raw<T, N> (8 + 16N) per raw
// parameter, and a scalar at its dtype's size and alignment.
TEST(ElementwiseVariants, ArgumentLayoutFollowsTheParameterTypes) {
    using kiln::detail::argument_layout;
    // custom_add, float64, y scalar, 2 strided axes: _n _shape _row_length _tile_columns _p_x _s_x
    // y _p_z _s_z.
    const ElementwiseVariant add{
        {{Kind::array, kiln::float64}, {Kind::scalar, kiln::float64}, {Kind::array, kiln::float64}},
        2,
        false,
        false};
    EXPECT_EQ(
        without_alignment(argument_layout(add)),
        slots({{0, 8}, {8, 16}, {24, 8}, {32, 8}, {40, 8}, {48, 16}, {64, 8}, {72, 8}, {80, 16}}));
    // clipped_relu, int8, contiguous: one-byte scalars pack together; the pointer realigns.
    const ElementwiseVariant relu{{{Kind::array, kiln::int8},
                                   {Kind::scalar, kiln::int8},
                                   {Kind::scalar, kiln::int8},
                                   {Kind::array, kiln::int8}}};
    EXPECT_EQ(without_alignment(argument_layout(relu)),
              slots({{0, 8}, {8, 8}, {16, 8}, {24, 1}, {25, 1}, {32, 8}}));
    // int8, float16, float32, complex128 scalars: each at its own alignment, complex128 at 16.
    const ElementwiseVariant mixed{{{Kind::scalar, kiln::int8},
                                    {Kind::scalar, kiln::float16},
                                    {Kind::scalar, kiln::float32},
                                    {Kind::scalar, kiln::complex128},
                                    {Kind::array, kiln::complex128}}};
    EXPECT_EQ(without_alignment(argument_layout(mixed)),
              slots({{0, 8}, {8, 8}, {16, 1}, {18, 2}, {20, 4}, {32, 16}, {48, 8}}));
    // reverse: a raw parameter of 3 axes is one 56-byte struct; a contiguous one a pointer.
    const ElementwiseVariant strided_raw{
        {{Kind::raw, kiln::int16, false, 3}, {Kind::array, kiln::int16}}};
    EXPECT_EQ(without_alignment(argument_layout(strided_raw)),
              slots({{0, 8}, {8, 8}, {16, 56}, {72, 8}}));
    const ElementwiseVariant flat_raw{
        {{Kind::raw, kiln::int16, true, 1}, {Kind::array, kiln::int16}}};
    EXPECT_EQ(without_alignment(argument_layout(flat_raw)),
              slots({{0, 8}, {8, 8}, {16, 8}, {24, 8}}));
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(ElementwiseVariants, SourceFollowsTheVariant) {
    const Seed seed = reverse();
    const ElementwiseVariant strided{
        {{Kind::raw, kiln::int64, false, 2}, {Kind::array, kiln::int64}}, 3, false, false};
    const std::string source = kiln::detail::elementwise_source(seed.definition, strided);
    EXPECT_TRUE(contains(source, "typedef long long T;\n")) << source;
    EXPECT_TRUE(contains(source,
                         "extern \"C\" __global__ void __launch_bounds__(256, 8) reverse(long "
                         "long _n, "
                         "kiln_dims<3> _shape, long long _row_length, long long _tile_columns, "
                         "kiln_raw<T, 2> x, "
                         "char* _p_y, "
                         "kiln_dims<3> _s_y)"))
        << source;
    EXPECT_TRUE(contains(source, "for (long long i = ")) << source;
    EXPECT_TRUE(contains(source, "y = x[_ind.size() - i - 1];")) << source;

    const ElementwiseVariant flat{
        {{Kind::raw, kiln::float32, true, 1}, {Kind::array, kiln::float32}}, 1, true, true};
    const std::string flat_source = kiln::detail::elementwise_source(seed.definition, flat);
    EXPECT_TRUE(contains(flat_source, "typedef float T;\n")) << flat_source;
    EXPECT_TRUE(contains(flat_source,
                         "void reverse(long long _n, kiln_dims<1> _shape, "
                         "kiln_raw_c<T> x, char* _p_y)"))
        << flat_source;
    EXPECT_TRUE(contains(flat_source, "for (int i = ")) << flat_source;
    EXPECT_TRUE(contains(flat_source, "T& y = *reinterpret_cast<T*>(_p_y + i * (int)sizeof(T));"))
        << flat_source;
}

// Const inputs are read ahead, about 16 bytes of the widest a step and at least two items; outputs
// and writable inputs stay bound to memory; the read-ahead path runs only when no writable pointer
// is a const one.
TEST(ElementwiseVariants, LoadAheadFollowsTheOperands) {
    using kiln::detail::gpu_dialect::elements_per_thread;
    const ElementwiseDefinition add = custom_add().definition;
    const auto contiguous = [](DType a, DType b) {
        return ElementwiseVariant{{{Kind::array, a}, {Kind::array, b}, {Kind::array, a}}};
    };
    EXPECT_EQ(elements_per_thread(add, contiguous(kiln::float32, kiln::float32)), 4);
    EXPECT_EQ(elements_per_thread(add, contiguous(kiln::int8, kiln::int8)), 4);
    EXPECT_EQ(elements_per_thread(add, contiguous(kiln::float64, kiln::float64)), 4);
    EXPECT_EQ(elements_per_thread(add, contiguous(kiln::complex128, kiln::complex128)), 2);
    const std::string source =
        kiln::detail::elementwise_source(add, contiguous(kiln::float32, kiln::float32));
    EXPECT_TRUE(contains(source, "const bool _ahead = _p_z != _p_x && _p_z != _p_y;\n")) << source;
    EXPECT_TRUE(contains(source, "T _v_x[4];")) << source;
    EXPECT_TRUE(contains(source, "const T& x = _v_x[_k];")) << source;
    EXPECT_TRUE(contains(source, "T& z = *reinterpret_cast<T*>(_p_z + i * (int)sizeof(T));"))
        << source;
    const std::string complex_source =
        kiln::detail::elementwise_source(add, contiguous(kiln::complex128, kiln::complex128));
    EXPECT_TRUE(contains(complex_source, "T _v_x[2];")) << complex_source;

    const ElementwiseDefinition writes = write_input().definition;
    const std::string write_source =
        kiln::detail::elementwise_source(writes, {{{Kind::array, kiln::float32},
                                                   {Kind::array, kiln::float32},
                                                   {Kind::array, kiln::float32}}});
    EXPECT_TRUE(contains(write_source, "const bool _ahead = _p_w != _p_x && _p_z != _p_x;\n"))
        << write_source;
    EXPECT_TRUE(contains(write_source, "T& w = *reinterpret_cast<T*>(_p_w + i * (int)sizeof(T));"))
        << write_source;
}

// Only 2-d strided variants with a const array input have a tiled mode: a 32x33 tile per such
// input, each rounded up to 16 bytes.
TEST(ElementwiseVariants, TiledModeSharedMemory) {
    using kiln::detail::gpu_dialect::tiled_shared_bytes;
    const ElementwiseDefinition add = custom_add().definition;
    const auto variant = [](DType dtype, int ndim, bool contiguous, Kind second) {
        return ElementwiseVariant{
            {{Kind::array, dtype}, {second, dtype}, {Kind::array, dtype}}, ndim, contiguous};
    };
    EXPECT_EQ(tiled_shared_bytes(add, variant(kiln::float32, 2, false, Kind::array)), 2U * 4224);
    EXPECT_EQ(tiled_shared_bytes(add, variant(kiln::int8, 2, false, Kind::scalar)), 1056U);
    EXPECT_EQ(tiled_shared_bytes(add, variant(kiln::complex128, 2, false, Kind::array)),
              2U * 16896);
    EXPECT_EQ(tiled_shared_bytes(add, variant(kiln::float32, 3, false, Kind::array)), 0U);
    EXPECT_EQ(tiled_shared_bytes(add, variant(kiln::float32, 1, true, Kind::array)), 0U);
}

TEST(ElementwiseVariants, AVariantThatDoesNotFitTheDefinitionIsAnError) {
    using kiln::test::expect_error;
    const ElementwiseDefinition add = custom_add().definition;
    const std::string prefix = "kiln: ElementwiseKernel 'custom_add': variant ";
    auto source = [&](const ElementwiseVariant& v) {
        return [&add, v] { (void)kiln::detail::elementwise_source(add, v); };
    };
    expect_error<kiln::Error>(source({{{Kind::array, kiln::int32}, {Kind::array, kiln::int32}}}),
                              prefix + "has 2 operands (expected one per parameter: 3)");
    expect_error<kiln::Error>(
        source(
            {{{Kind::raw, kiln::int32}, {Kind::array, kiln::int32}, {Kind::array, kiln::int32}}}),
        prefix + "operand 'x' cannot be raw");
    expect_error<kiln::Error>(source({{{Kind::array, kiln::int32},
                                       {Kind::array, kiln::int32},
                                       {Kind::scalar, kiln::int32}}}),
                              prefix + "operand 'z' is an output and cannot be a scalar");
    expect_error<kiln::Error>(source({{{Kind::array, kiln::float64},
                                       {Kind::scalar, kiln::float32},
                                       {Kind::array, kiln::float64}}}),
                              prefix + "operand 'y' is float32 but must be float64");
    expect_error<kiln::Error>(
        source({{{Kind::array, kiln::int8}, {Kind::array, kiln::int8}, {Kind::array, kiln::int8}},
                2,
                true,
                true}),
        prefix + "has rank 2 and is contiguous (expected rank 0 or 1)");
    const ElementwiseDefinition rev = reverse().definition;
    expect_error<kiln::Error>(
        [&] {
            (void)kiln::detail::elementwise_source(
                rev, {{{Kind::array, kiln::int8}, {Kind::array, kiln::int8}}});
        },
        "kiln: ElementwiseKernel 'reverse': variant operand 'x' must be raw");
    expect_error<kiln::Error>(
        [&] {
            (void)kiln::detail::elementwise_source(
                rev, {{{Kind::raw, kiln::int8, false, 0}, {Kind::array, kiln::int8}}});
        },
        "kiln: ElementwiseKernel 'reverse': variant operand 'x' has raw rank 0 (expected >= 1)");
}

// A call of scalars and size= resolves to its variant with no array, so no device: the missing
// raw output is described as the contiguous array the call would allocate.
TEST(ElementwiseVariants, SourceOfACallWithoutArraysNeedsNoDevice) {
    const kiln::ElementwiseKernel fill("T v", "raw T y", "y[i] = v", "fill_raw");
    const std::vector<kiln::Argument> args{kiln::Scalar(2.5)};
    const std::string source = fill.source(args, {.size = 4});
    const ElementwiseVariant expected{
        {{Kind::scalar, kiln::float64}, {Kind::raw, kiln::float64, true, 1}}, 1, true, true};
    EXPECT_EQ(source,
              kiln::detail::elementwise_source(
                  ElementwiseDefinition("T v", "raw T y", "y[i] = v", "fill_raw"), expected));
}

TEST(ElementwiseVariants, MessagePackReaderDecodesTheTypesOfAmdgpuMetadata) {
    // {"a": 256, "bb": [-1, true], "c": [-128]}, with a uint16, a str8, an array16 and an int8.
    const std::vector<char> bytes = {'\x83', '\xa1', 'a',    '\xcd', '\x01', '\x00', '\xd9',
                                     '\x02', 'b',    'b',    '\x92', '\xff', '\xc3', '\xa1',
                                     'c',    '\xdc', '\x00', '\x01', '\xd0', '\x80'};
    const auto value = kiln::test::read_msgpack(bytes);
    ASSERT_EQ(value.type, kiln::test::MsgPackValue::Type::map);
    ASSERT_EQ(value.map.size(), 3U);
    EXPECT_EQ(value.find("a")->integer, 256);
    ASSERT_EQ(value.find("bb")->array.size(), 2U);
    EXPECT_EQ(value.find("bb")->array[0].integer, -1);
    EXPECT_TRUE(value.find("bb")->array[1].boolean);
    ASSERT_EQ(value.find("c")->array.size(), 1U);
    EXPECT_EQ(value.find("c")->array[0].integer, -128);
    EXPECT_EQ(value.find("d"), nullptr);
    EXPECT_THROW((void)kiln::test::read_msgpack(std::span(bytes).first(bytes.size() - 1)),
                 std::runtime_error);
}

}  // namespace
