// An ElementwiseKernel's generated code as a function of data alone: the parsed definition and a
// Variant that says how each parameter is passed (kind, dtype, layout class) and how the loop
// indexes. A call computes its Variant from its arguments; tests build one by hand and generate
// and compile the source with no device.
#pragma once

#include "../../codegen/kernel_dialect.hpp"
#include "../param_spec.hpp"
#include "elementwise_loops.hpp"

#include <kiln/dtype.hpp>
#include <kiln/elementwise_kernel.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

// What an ElementwiseKernel's constructor parsed and checked: no device state.
struct ElementwiseDefinition {
    // Throws as ElementwiseKernel's constructor documents.
    ElementwiseDefinition(const std::string& in_params, const std::string& out_params,
                          std::string operation, std::string name, ElementwiseOptions options = {});

    std::string name;
    std::string operation;
    ElementwiseOptions options;
    std::vector<ParamSpec> in;
    std::vector<ParamSpec> out;
};

// How one parameter is passed in one variant.
struct OperandVariant {
    enum class Kind : std::uint8_t { array, scalar, raw };

    Kind kind = Kind::array;
    DType dtype = DType::float64;
    // Raw operands: a C-contiguous array is indexed as a flat pointer; any other is indexed in C
    // order through its own shape and strides, of raw_ndim (>= 1) axes.
    bool raw_contiguous = true;
    int raw_ndim = 1;

    friend bool operator==(const OperandVariant&, const OperandVariant&) = default;
};

// Everything the generated source depends on besides the definition.
struct ElementwiseVariant {
    std::vector<OperandVariant> operands;  // one per parameter: in_params, then out_params
    int ndim = 1;                          // the collapsed iteration rank (0 for a 0-d call)
    // Every array operand steps by its itemsize along the one axis (needs ndim <= 1): the loop
    // indexes arrays by i, with no shape or strides.
    bool contiguous = true;
    bool index32 = true;                     // every index and byte offset fits in int32
    const KernelDialect* dialect = nullptr;  // the one that writes it; none: the active backend's

    friend bool operator==(const ElementwiseVariant&, const ElementwiseVariant&) = default;
};

// The dialect that writes `variant`.
[[nodiscard]] const KernelDialect& dialect_of(const ElementwiseVariant& variant);

// A short text that tells variants apart, for the per-kernel cache of compiled variants.
[[nodiscard]] std::string variant_key(const ElementwiseVariant& variant);

// Throws Error when `variant` does not describe a call of `definition`: the operand count, a raw
// parameter passed other than raw or the reverse, an output passed as a scalar, a dtype that
// differs from a fixed dtype or from another operand of the same placeholder, a contiguous
// variant of more than one axis, a negative rank, or a raw rank below 1.
void check_variant(const ElementwiseDefinition& definition, const ElementwiseVariant& variant);

// The array operands, bound per element, in parameter order.
[[nodiscard]] std::vector<LoopOperand> loop_operands(const ElementwiseDefinition& definition,
                                                     const ElementwiseVariant& variant);

// The translation unit kiln compiles for a variant: elementwise_support_source(), then
// elementwise_kernel_source() under the definition's name. Checks the variant first.
[[nodiscard]] std::string elementwise_source(const ElementwiseDefinition& definition,
                                             const ElementwiseVariant& variant);

// The device prelude and the helper types every generated kernel uses; it defines nothing per
// variant, so one copy may precede several kernels' sources.
[[nodiscard]] std::string elementwise_support_source();

// The variant's placeholder typedefs, the preamble and the `extern "C"` kernel named
// `entry_name` (on the host, the kernel's body and KILN_HOST_KERNEL's descriptor of that name).
// Several variants fit in one translation unit when each is wrapped in its own namespace and has
// its own entry name. Checks the variant first.
[[nodiscard]] std::string elementwise_kernel_source(const ElementwiseDefinition& definition,
                                                    const ElementwiseVariant& variant,
                                                    std::string_view entry_name);

}  // namespace kiln::detail
