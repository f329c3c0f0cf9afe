// The arguments an ElementwiseKernel launch passes, packed in the order and with the sizes of the
// parameter list that elementwise_kernel_source() declares for the same variant.
#pragma once

#include "argument_pack.hpp"
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

// Kernel arguments, each in its own buffer, as the backend's launch takes them.
class PackedArguments {
public:
    // `values` must match `variant` (one value per operand; ranks as the variant says).
    PackedArguments(const ElementwiseVariant& variant, const CallValues& values);

    // One pointer per parameter, valid while this object lives.
    [[nodiscard]] void** pointers() { return pack_.pointers(); }
    [[nodiscard]] std::vector<ArgumentSlot> layout() const { return pack_.layout(); }
    // The pack, its operand bytes marked with the operand's index (in_params, then out_params).
    [[nodiscard]] const ArgumentPack& pack() const noexcept { return pack_; }

private:
    ArgumentPack pack_;
};

// The slots PackedArguments fills for any call of `variant`: a function of the variant alone.
[[nodiscard]] std::vector<ArgumentSlot> argument_layout(const ElementwiseVariant& variant);

}  // namespace kiln::detail
