// The arguments an ElementwiseKernel launch passes, packed in the order and with the sizes of the
// parameter list that elementwise_kernel_source() declares for the same variant.
#pragma once

#include "../argument_pack.hpp"
#include "elementwise_variant.hpp"

#include <kiln/shape.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kiln::detail {

// What one call passes for one parameter.
struct OperandValue {
    const void* data = nullptr;  // array and raw operands
    // Array operands: the collapsed strides, one per axis of the variant. Raw operands that are
    // not contiguous: the array's own shape and strides.
    Shape shape;
    Strides strides;
    std::array<std::byte, 16> scalar{};  // scalar operands, already in the operand's dtype
};

// What one call passes: the element count, the collapsed shape and one value per operand.
struct CallValues {
    std::int64_t size = 0;
    Shape shape;
    // Strided variants: the innermost extent when blocks take whole rows, or 0 (see the source).
    std::int64_t row_length = 0;
    // Strided variants: the tiles across when blocks take 32x32 tiles, or 0 (see the source).
    std::int64_t tile_columns = 0;
    std::vector<OperandValue> operands;
};

// A launch's arguments, their operand bytes marked with the operand's index (in_params, then
// out_params). `values` must match `variant` (one value per operand; ranks as the variant says).
[[nodiscard]] ArgumentPack elementwise_arguments(const ElementwiseVariant& variant,
                                                 const CallValues& values);

// The slots elementwise_arguments fills for any call of `variant`: a function of the variant alone.
[[nodiscard]] std::vector<ArgumentSlot> argument_layout(const ElementwiseVariant& variant);

}  // namespace kiln::detail
