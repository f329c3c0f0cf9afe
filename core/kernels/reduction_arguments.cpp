#include "reduction_arguments.hpp"

namespace kiln::detail {

namespace {

void push_outputs(ArgumentPack& pack, const ReductionVariant& v, const ReductionValues& x) {
    for (const auto& out : x.outputs) {
        pack.push(out.data);
        pack.push_dims(out.strides, v.out_ndim);
    }
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
    pack.push(x.partial);
    pack.push_dims(x.out_shape, v.out_ndim);
    pack.push_dims(x.reduce_shape, v.reduce_ndim);
    for (std::size_t p = 0; p < x.inputs.size(); ++p) {
        const auto& in = x.inputs[p];
        if (v.in_scalar[p]) {
            pack.begin(alignment(v.in_dtypes[p]));
            pack.append(in.scalar.data(), itemsize(v.in_dtypes[p]));
            continue;
        }
        pack.push(in.data);
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
    pack.push(static_cast<const void*>(x.partial));
    pack.push_dims(x.out_shape, v.out_ndim);
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
