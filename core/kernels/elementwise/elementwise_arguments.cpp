#include "elementwise_arguments.hpp"

#include <algorithm>
#include <cstring>

namespace kiln::detail {

namespace {

// Every pointer, long long and helper struct (kiln_dims, kiln_raw_c, kiln_raw) of the generated
// parameter list is 8-byte aligned on both vendors' 64-bit devices.
constexpr std::size_t word = 8;
static_assert(sizeof(long long) == word && sizeof(void*) == word);

}  // namespace

ArgumentPack elementwise_arguments(const ElementwiseVariant& variant, const CallValues& values) {
    ArgumentPack pack;
    const auto ndim = static_cast<std::size_t>(std::max(variant.ndim, 1));
    pack.push(static_cast<long long>(values.size));
    pack.push_dims(values.shape.empty() ? Shape{1} : values.shape, ndim);
    if (!variant.contiguous) {
        pack.push(static_cast<long long>(values.row_length));
        pack.push(static_cast<long long>(values.tile_columns));
    }
    for (std::size_t p = 0; p < variant.operands.size(); ++p) {
        const OperandVariant& op = variant.operands[p];
        const OperandValue& value = values.operands[p];
        const auto operand = static_cast<int>(p);
        switch (op.kind) {
            case OperandVariant::Kind::scalar:
                pack.begin(alignment(op.dtype));
                pack.append_operand(value.scalar.data(), itemsize(op.dtype), operand);
                break;
            case OperandVariant::Kind::raw:
                // kiln_raw_c<T> {p} or kiln_raw<T, N> {p, shape[N], strides[N]}: one argument.
                pack.begin(word);
                pack.append_operand(static_cast<const void*>(&value.data), sizeof value.data,
                                    operand);
                if (!op.raw_contiguous) {
                    const auto n = static_cast<std::size_t>(op.raw_ndim);
                    pack.append_dims(value.shape, n);
                    pack.append_dims(value.strides, n);
                }
                break;
            case OperandVariant::Kind::array:
                pack.push_operand_pointer(value.data, operand);
                if (!variant.contiguous) {
                    pack.push_dims(value.strides.empty() ? Strides{0} : value.strides, ndim);
                }
                break;
        }
    }
    return pack;
}

std::vector<ArgumentSlot> argument_layout(const ElementwiseVariant& variant) {
    CallValues values;
    values.shape = Shape(static_cast<std::size_t>(std::max(variant.ndim, 0)), 1);
    for (const auto& op : variant.operands) {
        OperandValue value;
        if (op.kind == OperandVariant::Kind::array) {
            value.strides = Strides(values.shape.size(), 0);
        } else if (op.kind == OperandVariant::Kind::raw && !op.raw_contiguous) {
            value.shape = Shape(static_cast<std::size_t>(std::max(op.raw_ndim, 1)), 1);
            value.strides = Strides(value.shape.size(), 0);
        }
        values.operands.push_back(std::move(value));
    }
    return elementwise_arguments(variant, values).layout();
}

}  // namespace kiln::detail
