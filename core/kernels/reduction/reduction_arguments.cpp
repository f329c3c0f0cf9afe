#include "reduction_arguments.hpp"

namespace kiln::detail {

namespace {

// Operands are numbered as the call's arguments: in_params, then out_params.
void push_outputs(ArgumentPack& pack, const ReductionVariant& v, const ReductionValues& x) {
    for (std::size_t o = 0; o < x.outputs.size(); ++o) {
        pack.push_operand_pointer(x.outputs[o].data, static_cast<int>(x.inputs.size() + o));
        pack.push_dims(x.outputs[o].strides, v.out_ndim);
    }
}

void push_scalar(ArgumentPack& pack, const ReductionVariant& v, const ReductionValues& x,
                 std::size_t p) {
    pack.begin(alignment(v.in_dtypes[p]));
    pack.append_operand(x.inputs[p].scalar.data(), itemsize(v.in_dtypes[p]), static_cast<int>(p));
}

// Placeholder values of the right ranks: layouts depend on the variant alone.
ReductionValues placeholder_values(const ReductionVariant& v) {
    ReductionValues x;
    x.inputs.resize(v.in_dtypes.size());
    x.outputs.resize(v.out_dtypes.size());
    return x;
}

}  // namespace

ArgumentPack reduce_arguments(const ReductionVariant& v, const ReductionValues& x) {
    ArgumentPack pack;
    pack.push(static_cast<long long>(x.m));
    pack.push(static_cast<long long>(x.n));
    pack.push(static_cast<long long>(x.chunk));
    pack.push(x.lanes);
    pack.push(static_cast<int>(x.lanes_fast));
    pack.push_operand_pointer(x.partial, scratch_operand);
    pack.push_operand_pointer(x.counter, counter_operand);
    pack.push(x.finish_lanes);
    pack.push_dims(x.out_shape, v.out_ndim);
    pack.push_dims(x.reduce_shape, v.reduce_ndim);
    for (std::size_t p = 0; p < x.inputs.size(); ++p) {
        const auto& in = x.inputs[p];
        if (v.in_scalar[p]) {
            push_scalar(pack, v, x, p);
            continue;
        }
        pack.push_operand_pointer(in.data, static_cast<int>(p));
        pack.push_dims(in.out_strides, v.out_ndim);
        pack.push_dims(in.reduce_strides, v.reduce_ndim);
    }
    push_outputs(pack, v, x);
    return pack;
}

ArgumentPack finish_arguments(const ReductionVariant& v, const ReductionValues& x) {
    ArgumentPack pack;
    pack.push(static_cast<long long>(x.m));
    pack.push(static_cast<long long>(x.n));
    pack.push(static_cast<long long>(x.split));
    pack.push(x.finish_lanes);
    pack.push_operand_pointer(x.partial, scratch_operand);
    pack.push_dims(x.out_shape, v.out_ndim);
    for (std::size_t p = 0; p < x.inputs.size(); ++p) {
        if (v.in_scalar[p]) {
            push_scalar(pack, v, x, p);
        }
    }
    push_outputs(pack, v, x);
    return pack;
}

std::vector<ArgumentSlot> reduce_layout(const ReductionVariant& v) {
    return reduce_arguments(v, placeholder_values(v)).layout();
}

std::vector<ArgumentSlot> finish_layout(const ReductionVariant& v) {
    return finish_arguments(v, placeholder_values(v)).layout();
}

}  // namespace kiln::detail
