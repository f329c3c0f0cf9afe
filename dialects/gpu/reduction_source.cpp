// The GPU dialect's ReductionKernel: lanes of a block share each output's reduction, through
// warp shuffles and shared memory (_kiln_block_reduce), and a finishing kernel reduces the chunks'
// partials when the reduction is split over blocks.
#include "reduction.hpp"

#include "device_files.hpp"
#include "dialect.hpp"

#include "../../core/kernels/reduction/reduction_source_parts.hpp"

#include <string>

namespace kiln::detail::gpu_dialect {

namespace {

std::string block_reduce_call(const ReductionDefinition& k) {
    return std::string("_kiln_block_reduce(_acc, ") + (k.identity.empty() ? "_have, " : "") +
           "_sh, " + (k.identity.empty() ? "_kiln_have, " : "") + "_tid, _lane, _lanes, _step);";
}

std::string shared_storage(const ReductionDefinition& k) {
    std::string code =
        "    __shared__ _kiln_storage _kiln_smem[(" + std::to_string(reduction_block) +
        " * sizeof(_type_reduce) + 15) / 16];\n"
        "    _type_reduce* const _sh = reinterpret_cast<_type_reduce*>(_kiln_smem);\n";
    if (k.identity.empty()) {
        code += "    __shared__ bool _kiln_have[" + std::to_string(reduction_block) + "];\n";
    }
    return code;
}

// `_kiln_block_reduce` folds each output's `_lanes` values, `_step` threads apart, into its lane
// 0's `_acc`: shuffles while the lanes share a warp, shared memory beyond (block-uniform
// branches). Lane counts are powers of two, so lanes are picked with masks: a `%` by a run-time
// value is an integer division, which cost l2norm along rows of 8192² 8% of its time.
// device/kiln/block_reduce.cuh, or block_reduce_flagged.cuh where the reduction has no identity
// and each value carries whether it holds one.
std::string block_reduce_function(const ReductionDefinition& k) {
    return std::string(k.identity.empty() ? device_file::block_reduce_flagged_cuh().text
                                          : device_file::block_reduce_cuh().text);
}

// The loop of the finishing pass over outputs `_first` from `first`, `stride` apart: each output's
// `_split` partials folded by `_lanes` lanes of a block and written through the post-map.
std::string finish_loop(const ReductionDefinition& k, const ReductionVariant& v,
                        const std::string& first, const std::string& stride) {
    const std::string index = index_type(v);
    const FinishCode finish = finish_code(k, v);
    std::string code = "    const int _groups = blockDim.x / _lanes;\n";
    code += "    const int _lane = _tid % _lanes;\n    const int _group = _tid / _lanes;\n";
    code += "    const int _step = 1;\n";
    code += finish.partials;
    code += "    for (" + index + " _first = " + first + "; _first < (" + index +
            ")_m; _first += " + stride + ") {\n";
    code += "        const " + index + " _o = _first + _group;\n";
    code += "        " + start_accumulator(k) + "\n";
    code += "        if (_o < (" + index + ")_m) {\n" + finish.map;
    code += element_loop(k, index, "_lane", "(" + index + ")_split", "(" + index + ")_lanes") +
            "        }\n";
    code += "        " + block_reduce_call(k) + "\n";
    code += "        if (_lane == 0 && _o < (" + index + ")_m) {\n";
    code += "            " + post_map(k, v) + "        }\n    }\n";
    return code;
}

std::string reduce_kernel(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string index = index_type(v);
    const MapCode map = map_code(k, v);
    std::string code = dialect().kernel_opening(k.name, map.params, {});
    code += shared_storage(k);
    code += "    const _kiln_index _in_ind{_m * _n};\n    const _kiln_index _out_ind{_m};\n";
    code += "    const int _tid = threadIdx.x;\n    const int _groups = blockDim.x / _lanes;\n";
    code += "    const int _lane = _lanes_fast ? _tid % _lanes : _tid / _groups;\n";
    code += "    const int _group = _lanes_fast ? _tid / _lanes : _tid % _groups;\n";
    code += "    const int _step = _lanes_fast ? 1 : _groups;\n";
    code += "    const " + index + " _begin = (" + index + ")blockIdx.y * (" + index + ")_chunk;\n";
    code += "    const " + index + " _end = _n - _begin < _chunk ? (" + index + ")_n : _begin + (" +
            index + ")_chunk;\n";
    code += "    for (" + index + " _first = (" + index + ")blockIdx.x * _groups; _first < (" +
            index + ")_m; _first += (" + index + ")gridDim.x * _groups) {\n";
    code += "        const " + index + " _o = _first + _group;\n";
    code += "        " + start_accumulator(k) + "\n";
    code += "        if (_o < (" + index + ")_m) {\n";
    code += map.output_offsets + map.map;
    code +=
        element_loop(k, index, "_begin + _lane", "_end", "(" + index + ")_lanes") + "        }\n";
    code += "        " + block_reduce_call(k) + "\n";
    code += "        if (_lane == 0 && _o < (" + index + ")_m) {\n";
    code += "            if (_partial != nullptr) {\n";
    code += "                reinterpret_cast<_type_reduce*>(_partial)[_o * (" + index +
            ")gridDim.y + blockIdx.y] = _acc;\n";
    code += "            } else {\n                " + post_map(k, v) + "            }\n";
    code += "        }\n    }\n";
    // With a counter, the last block to finish reduces every output's partials: the partials
    // are made visible device-wide before the count, and the count is set back to zero for the
    // next reduction on the stream.
    code += "    if (_counter == nullptr) {\n        return;\n    }\n";
    code += "    __shared__ bool _kiln_last;\n    __threadfence();\n    __syncthreads();\n";
    code += "    if (_tid == 0) {\n";
    code += "        _kiln_last = atomicAdd(_counter, 1u) == gridDim.x * gridDim.y - 1;\n";
    code += "    }\n    __syncthreads();\n";
    code += "    if (!_kiln_last) {\n        return;\n    }\n    __threadfence();\n";
    code +=
        "    {\n    const int _lanes = _finish_lanes;\n    const long long _split = gridDim.y;\n";
    code += finish_loop(k, v, "(" + index + ")0", "(" + index + ")_groups");
    code += "    }\n    if (_tid == 0) {\n        *_counter = 0;\n    }\n}\n";
    return code;
}

std::string finish_kernel(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string index = index_type(v);
    std::string code = dialect().kernel_opening(finish_name(k), finish_code(k, v).params, {});
    code += "    const _kiln_index _in_ind{_m * _n};\n    const _kiln_index _out_ind{_m};\n";
    code += shared_storage(k);
    code += "    const int _tid = threadIdx.x;\n";
    code += finish_loop(k, v, "(" + index + ")blockIdx.x * (blockDim.x / _lanes)",
                        "(" + index + ")gridDim.x * _groups");
    return code + "}\n";
}

// Every layout at run time: one binary serves them all.
ReductionLayout layout(const ReductionCall& /*call*/) {
    return ReductionLayout::strided;
}

}  // namespace

const ReductionDialect reduction_part{&block_reduce_function, &reduce_kernel, &finish_kernel,
                                      &layout, &plan_reduction_launch};

}  // namespace kiln::detail::gpu_dialect
