#include "elementwise_call.hpp"

#include "../../array/array_memory.hpp"
#include "../../layout.hpp"
#include "../call_checks.hpp"
#include "../collapse.hpp"
#include "../recorded_call.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <optional>

namespace kiln::detail {

namespace {

const ParamSpec& param(const ElementwiseDefinition& k, std::size_t p) {
    return p < k.in.size() ? k.in[p] : k.out[p - k.in.size()];
}

// The dtype of every operand, in_params then out_params.
std::vector<DType> operand_dtypes(const ElementwiseDefinition& k, std::span<const Argument> args) {
    const std::string prefix = elementwise_prefix(k);
    const std::vector<ndarray> outputs = output_arguments(prefix, k.in, k.out, args);
    const auto binding = bind_arguments(k.name, k.in, k.out, args, outputs);
    std::vector<DType> dtypes;
    for (std::size_t p = 0; p < k.in.size() + k.out.size(); ++p) {
        dtypes.push_back(resolved_dtype(param(k, p), binding));
    }
    return dtypes;
}

// The iteration shape: the non-raw arrays broadcast together, or size= when every array is raw.
Shape iteration_shape(const ElementwiseDefinition& k, const std::vector<Shape>& shapes,
                      const CallOptions& options) {
    const std::string prefix = elementwise_prefix(k);
    if (!shapes.empty()) {
        if (options.size) {
            throw Error(prefix + "size= is only allowed when every array argument is raw");
        }
        return broadcast_arguments(prefix, shapes, "arguments");
    }
    if (!options.size) {
        throw Error(prefix + "every array argument is raw, so the call needs size=");
    }
    if (*options.size < 0) {
        throw Error(prefix + "size must be non-negative, got " + std::to_string(*options.size));
    }
    return {*options.size};
}

// Each operand's kind and dtype, the scalars' values and the arrays (checked to be on the
// device); returns the shapes of the non-raw arrays.
std::vector<Shape> bind_operands(const ElementwiseDefinition& k, std::span<const Argument> args,
                                 std::optional<int> device, ElementwiseCall& call) {
    const std::vector<DType> dtypes = operand_dtypes(k, args);
    const std::size_t count = dtypes.size();
    call.outputs_given = args.size() == count;
    call.arrays.resize(count);
    call.values.operands.resize(count);
    std::vector<Shape> shapes;
    for (std::size_t p = 0; p < count; ++p) {
        OperandVariant op{param(k, p).raw ? OperandVariant::Kind::raw : OperandVariant::Kind::array,
                          dtypes[p]};
        if (p < args.size()) {
            if (const auto* scalar = std::get_if<Scalar>(&args[p])) {
                op.kind = OperandVariant::Kind::scalar;
                call.values.operands[p].scalar = scalar->bytes_as(op.dtype);
            } else {
                const auto& array = std::get<ndarray>(args[p]);
                check_device(elementwise_prefix(k), param(k, p).name, array, device);
                call.arrays[p] = array;
                if (op.kind == OperandVariant::Kind::array) {
                    shapes.push_back(array.shape());
                }
            }
        }
        call.variant.operands.push_back(op);
    }
    return shapes;
}

// Checks every array's dtype and every given output's shape against the call.
void check_arrays(const ElementwiseDefinition& k, const ElementwiseCall& call) {
    const std::string prefix = elementwise_prefix(k);
    for (std::size_t p = 0; p < call.arrays.size(); ++p) {
        const OperandVariant& op = call.variant.operands[p];
        const bool output = p >= k.in.size();
        if (op.kind == OperandVariant::Kind::scalar || (output && !call.outputs_given)) {
            continue;
        }
        if (output || op.kind == OperandVariant::Kind::array) {
            check_dtype(prefix, output ? "output" : "input", param(k, p).name, call.arrays[p],
                        op.dtype);
        }
        if (output && op.kind == OperandVariant::Kind::array) {
            check_output_shape(prefix, param(k, p).name, call.arrays[p], call.shape);
        }
    }
}

// Broadcast strides (missing outputs C-contiguous), raw operands' layouts, then the collapsed
// shape and strides, the contiguous flag and the index width.
void lay_out(const ElementwiseDefinition& k, ElementwiseCall& call) {
    std::vector<Strides> strides;
    std::int64_t extent = 0;
    for (std::size_t p = 0; p < call.arrays.size(); ++p) {
        OperandVariant& op = call.variant.operands[p];
        if (op.kind == OperandVariant::Kind::scalar) {
            continue;
        }
        const std::size_t size = itemsize(op.dtype);
        const bool given = p < k.in.size() || call.outputs_given;
        const Layout own = given ? Layout{call.arrays[p].shape(), call.arrays[p].strides(), 0}
                                 : c_contiguous(call.shape, size);
        OperandValue& value = call.values.operands[p];
        value.data = given ? call.arrays[p].data() : nullptr;
        const Layout layout =
            op.kind == OperandVariant::Kind::array ? broadcast_to(own, call.shape, size) : own;
        if (op.kind == OperandVariant::Kind::array) {
            strides.push_back(layout.strides);
        } else {
            op.raw_contiguous = is_c_contiguous(own, size);
            if (!op.raw_contiguous) {
                op.raw_ndim = static_cast<int>(own.shape.size());
                value.shape = own.shape;
                value.strides = own.strides;
            }
        }
        const auto [low, high] = byte_extent(layout, size);
        extent = std::max({extent, -low, high});
    }
    call.values.size = checked_size(call.shape, 1);
    Collapsed collapsed =
        k.options.reduce_dims ? collapse_dims(call.shape, strides) : Collapsed{call.shape, strides};
    call.variant.ndim = static_cast<int>(collapsed.shape.size());
    call.values.shape = std::move(collapsed.shape);
    std::size_t s = 0;
    for (std::size_t p = 0; p < call.arrays.size(); ++p) {
        const OperandVariant& op = call.variant.operands[p];
        if (op.kind == OperandVariant::Kind::array) {
            Strides& op_strides = call.values.operands[p].strides;
            op_strides = std::move(collapsed.strides[s++]);
            call.variant.contiguous =
                call.variant.contiguous && call.values.shape.size() <= 1 &&
                (call.values.shape.empty() ||
                 op_strides[0] == static_cast<std::int64_t>(itemsize(op.dtype)));
        }
    }
    call.variant.index32 = fits_32_bit_indices(call.values.size, extent);
}

}  // namespace

std::string elementwise_prefix(const ElementwiseDefinition& k) {
    return "kiln: ElementwiseKernel '" + k.name + "': ";
}

ElementwiseCall prepare_elementwise(const ElementwiseDefinition& k, std::span<const Argument> args,
                                    const CallOptions& options, std::optional<int> device) {
    ElementwiseCall call;
    call.variant.dialect = &active_kernel_dialect();
    const std::vector<Shape> shapes = bind_operands(k, args, device, call);
    call.shape = iteration_shape(k, shapes, options);
    check_arrays(k, call);
    lay_out(k, call);
    return call;
}

void allocate_elementwise_outputs(const ElementwiseDefinition& k, ElementwiseCall& call,
                                  StreamView stream) {
    if (call.outputs_given) {
        return;
    }
    for (std::size_t p = k.in.size(); p < call.arrays.size(); ++p) {
        call.arrays[p] = empty_on(call.shape, call.variant.operands[p].dtype, stream);
        call.values.operands[p].data = call.arrays[p].data();
    }
}

}  // namespace kiln::detail
