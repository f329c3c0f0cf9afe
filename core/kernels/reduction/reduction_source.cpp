#include "reduction_source.hpp"

#include "../../codegen/device_prelude.hpp"
#include "../../codegen/kernel_entry.hpp"
#include "reduction_source_parts.hpp"

#include <algorithm>
#include <map>

namespace kiln::detail {

std::string cat(std::initializer_list<std::string_view> pieces) {
    std::string out;
    for (const auto piece : pieces) {
        out += piece;
    }
    return out;
}

std::string index_type(const ReductionVariant& v) {
    return v.index32 ? "int" : "long long";
}

std::string unravel(const std::string& index, const std::string& position, const std::string& shape,
                    std::size_t ndim,
                    const std::vector<std::pair<std::string, std::string>>& offset_strides) {
    std::string code = "{ " + index + " _r = " + position + ";";
    for (std::size_t d = ndim; d-- > 0;) {
        const std::string at = ".v[" + std::to_string(d) + "]";
        std::string step = "_r";
        if (d > 0) {
            code += cat({" const ", index, " _k", std::to_string(d), " = _r % (", index, ")", shape,
                         at, "; _r /= (", index, ")", shape, at, ";"});
            step = "_k" + std::to_string(d);
        }
        for (const auto& [offset, strides] : offset_strides) {
            code += cat({" ", offset, " += ", step, " * (", index, ")", strides, at, ";"});
        }
    }
    return code + " }";
}

std::string type_of(const ParamSpec& p, DType dtype) {
    return p.dtype ? std::string(c_type(dtype)) : p.placeholder;
}

namespace {

std::string dims(std::size_t n) {
    return "_kiln_dims<" + std::to_string(n) + ">";
}

}  // namespace

std::string accumulate(const ReductionDefinition& k) {
    if (!k.identity.empty()) {
        return "_acc = _kiln_reduce(_acc, _v);";
    }
    return "if (_have) { _acc = _kiln_reduce(_acc, _v); } else { _acc = _v; _have = true; }";
}

std::string start_accumulator(const ReductionDefinition& k) {
    if (!k.identity.empty()) {
        return "_type_reduce _acc = _type_reduce(" + k.identity + ");";
    }
    return "_type_reduce _acc = _type_reduce(); bool _have = false;";
}

namespace {

std::string block_reduce_call(const ReductionDefinition& k) {
    return std::string("_kiln_block_reduce(_acc, ") + (k.identity.empty() ? "_have, " : "") +
           "_sh, " + (k.identity.empty() ? "_kiln_have, " : "") + "_tid, _lane, _lanes, _step);";
}

}  // namespace

std::string post_map(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string index = index_type(v);
    std::string code = "const _type_reduce& a = _acc;\n";
    std::vector<std::pair<std::string, std::string>> offsets;
    for (const auto& p : k.out) {
        code += "                " + index + " _ob_" + p.name + " = 0;\n";
        offsets.emplace_back("_ob_" + p.name, "_os_" + p.name);
    }
    code += "                " + unravel(index, "_o", "_oshape", v.out_ndim, offsets) + "\n";
    for (std::size_t o = 0; o < k.out.size(); ++o) {
        const auto& p = k.out[o];
        const std::string type = type_of(p, v.out_dtypes[o]);
        code += cat({"                ", type, "& ", p.name, " = *reinterpret_cast<", type,
                     "*>(_p_", p.name, " + _ob_", p.name, ");\n"});
    }
    return code + "                " + k.post_map_expr + ";\n";
}

namespace {

std::string output_params(const ReductionDefinition& k, const ReductionVariant& v) {
    std::string params;
    for (const auto& p : k.out) {
        params += ", char* _p_" + p.name + ", " + dims(v.out_ndim) + " _os_" + p.name;
    }
    return params;
}

// The scalar inputs, by value: the finishing pass's post_map_expr may use them too.
std::string scalar_params(const ReductionDefinition& k, const ReductionVariant& v) {
    std::string params;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (v.in_scalar[p]) {
            params += ", const " + type_of(k.in[p], v.in_dtypes[p]) + " " + k.in[p].name;
        }
    }
    return params;
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

// The placeholders' typedefs and `_type_reduce` (a struct of members `_0`, `_1`, ... for a tuple),
// with a check of its layout against the host's.
std::string type_definitions(const ReductionDefinition& k, const ReductionVariant& v) {
    std::map<std::string, std::string> placeholders;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (!k.in[p].dtype) {
            placeholders[k.in[p].placeholder] = c_type(v.in_dtypes[p]);
        }
    }
    for (std::size_t p = 0; p < k.out.size(); ++p) {
        if (!k.out[p].dtype) {
            placeholders[k.out[p].placeholder] = c_type(v.out_dtypes[p]);
        }
    }
    std::string code;
    for (const auto& [placeholder, type] : placeholders) {
        code += cat({"typedef ", type, " ", placeholder, ";\n"});
    }
    if (v.reduce_dtypes.size() == 1) {
        code += "typedef " + std::string(c_type(v.reduce_dtypes[0])) + " _type_reduce;\n";
    } else {
        std::string members;
        std::string arguments;
        std::string inits;
        for (std::size_t m = 0; m < v.reduce_dtypes.size(); ++m) {
            const std::string type(c_type(v.reduce_dtypes[m]));
            const std::string member = "_" + std::to_string(m);
            members += cat({"    ", type, " ", member, ";\n"});
            arguments += (m == 0 ? "" : ", ") + type + " _v" + std::to_string(m);
            inits += (m == 0 ? "" : ", ") + member + "(_v" + std::to_string(m) + ")";
        }
        code += "struct _type_reduce {\n" + members +
                "    __device__ _type_reduce() {}\n    __device__ _type_reduce(" + arguments +
                ") : " + inits + " {}\n};\n";
    }
    code += "static_assert(sizeof(_type_reduce) == " +
            std::to_string(reduce_type_size(v.reduce_dtypes)) +
            ", \"kiln: _type_reduce must match the host's layout\");\n";
    return code;
}

// `_kiln_block_reduce` folds each output's `_lanes` values, `_step` threads apart, into its lane
// 0's `_acc`: shuffles while the lanes share a warp, shared memory beyond (block-uniform
// branches). Lane counts are powers of two, so lanes are picked with masks: a `%` by a run-time
// value is an integer division, which cost l2norm along rows of 8192² 8% of its time.
std::string block_reduce_function(const ReductionDefinition& k) {
    if (k.identity.empty()) {
        return
            R"(__device__ __forceinline__ void _kiln_block_reduce(_type_reduce& _acc, bool& _have, _type_reduce* _sh, bool* _sh_have, int _tid, int _lane, int _lanes, int _step) {
    int _s = 1;
    for (; _s < _lanes && _s * _step < KILN_WARP_SIZE; _s *= 2) {
        const _type_reduce _other = kiln_shfl_down_words(_acc, _s * _step);
        const bool _other_have = kiln_shfl_down(int(_have), _s * _step) != 0;
        if ((_lane & (2 * _s - 1)) == 0 && _other_have) {
            _acc = _have ? _kiln_reduce(_acc, _other) : _other;
            _have = true;
        }
    }
    if (_s < _lanes) {
        _sh[_tid] = _acc;
        _sh_have[_tid] = _have;
        for (int _t = _lanes / 2; _t >= _s; _t /= 2) {
            __syncthreads();
            const int _other = _tid + _t * _step;
            if (_lane < _t && (_lane & (_s - 1)) == 0 && _sh_have[_other]) {
                _sh[_tid] = _sh_have[_tid] ? _kiln_reduce(_sh[_tid], _sh[_other]) : _sh[_other];
                _sh_have[_tid] = true;
            }
        }
        _acc = _sh[_tid];
        _have = _sh_have[_tid];
        __syncthreads();
    }
}
)";
    }
    return
        R"(__device__ __forceinline__ void _kiln_block_reduce(_type_reduce& _acc, _type_reduce* _sh, int _tid, int _lane, int _lanes, int _step) {
    int _s = 1;
    for (; _s < _lanes && _s * _step < KILN_WARP_SIZE; _s *= 2) {
        const _type_reduce _other = kiln_shfl_down_words(_acc, _s * _step);
        if ((_lane & (2 * _s - 1)) == 0) { _acc = _kiln_reduce(_acc, _other); }
    }
    if (_s < _lanes) {
        _sh[_tid] = _acc;
        for (int _t = _lanes / 2; _t >= _s; _t /= 2) {
            __syncthreads();
            if (_lane < _t && (_lane & (_s - 1)) == 0) { _sh[_tid] = _kiln_reduce(_sh[_tid], _sh[_tid + _t * _step]); }
        }
        _acc = _sh[_tid];
        __syncthreads();
    }
}
)";
}

std::string common_definitions(const ReductionDefinition& k, const ReductionVariant& v) {
    std::string code(device_prelude());
    code += type_definitions(k, v);
    code += k.preamble + "\n";
    code += R"(template <int N> struct _kiln_dims { long long v[N]; };
struct _kiln_index { long long n; __device__ long long size() const { return n; } };
struct alignas(16) _kiln_storage { unsigned char bytes[16]; };
__device__ __forceinline__ _type_reduce _kiln_reduce(const _type_reduce& a, const _type_reduce& b) {
    return _type_reduce()" +
            k.reduce_expr + R"();
}
)";
    if (v.dialect == Dialect::gpu) {
        code += block_reduce_function(k);
    }
    return code;
}

}  // namespace

std::string element_loop(const ReductionDefinition& k, const std::string& index,
                         const std::string& first, const std::string& end,
                         const std::string& lanes) {
    std::string code = "            " + index + " _J = " + first + ";\n";
    code += "            for (; _J + 3 * " + lanes + " < " + end + "; _J += 4 * " + lanes + ") {\n";
    code += "                const _type_reduce _v0 = _map(_J);\n";
    code += "                const _type_reduce _v1 = _map(_J + " + lanes + ");\n";
    code += "                const _type_reduce _v2 = _map(_J + 2 * " + lanes + ");\n";
    code += "                const _type_reduce _v3 = _map(_J + 3 * " + lanes + ");\n";
    code +=
        "                const _type_reduce _v = _kiln_reduce(_kiln_reduce(_v0, _v1), "
        "_kiln_reduce(_v2, _v3));\n";
    code += "                " + accumulate(k) + "\n            }\n";
    code += "            for (; _J < " + end + "; _J += " + lanes + ") {\n";
    code += "                const _type_reduce _v = _map(_J);\n";
    code += "                " + accumulate(k) + "\n            }\n";
    return code;
}

MapCode map_code(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string index = index_type(v);
    MapCode code;
    code.params =
        "long long _m, long long _n, long long _chunk, int _lanes, "
        "int _lanes_fast, char* _partial, " +
        dims(v.out_ndim) + " _oshape, " + dims(v.reduce_ndim) + " _rshape";
    std::string element_offsets;
    std::string bindings;
    std::vector<std::pair<std::string, std::string>> out_strides;
    std::vector<std::pair<std::string, std::string>> reduce_strides;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        const auto& spec = k.in[p];
        const std::string type = type_of(spec, v.in_dtypes[p]);
        if (v.in_scalar[p]) {
            code.params += ", const " + type + " " + spec.name;
            continue;
        }
        code.params += ", char* _p_" + spec.name + ", " + dims(v.out_ndim) + " _os_" + spec.name +
                       ", " + dims(v.reduce_ndim) + " _rs_" + spec.name;
        code.output_offsets += "            " + index + " _ob_" + spec.name + " = 0;\n";
        element_offsets +=
            "                " + index + " _e_" + spec.name + " = _ob_" + spec.name + ";\n";
        out_strides.emplace_back("_ob_" + spec.name, "_os_" + spec.name);
        reduce_strides.emplace_back("_e_" + spec.name, "_rs_" + spec.name);
        const std::string qualified = (spec.non_const ? "" : "const ") + type;
        bindings += cat({"                ", qualified, "& ", spec.name, " = *reinterpret_cast<",
                         qualified, "*>(_p_", spec.name, " + _e_", spec.name, ");\n"});
    }
    code.params += output_params(k, v);
    if (!out_strides.empty()) {
        code.output_offsets +=
            "            " + unravel(index, "_o", "_oshape", v.out_ndim, out_strides) + "\n";
    }
    code.map = "            const auto _map = [&](const " + index + " _J) -> _type_reduce {\n";
    code.map += element_offsets;
    if (!reduce_strides.empty()) {
        code.map += "                " +
                    unravel(index, "_J", "_rshape", v.reduce_ndim, reduce_strides) + "\n";
    }
    code.map += bindings;
    code.map += "                return _type_reduce(" + k.map_expr + ");\n            };\n";
    return code;
}

namespace {

std::string main_kernel(const ReductionDefinition& k, const ReductionVariant& v) {
    if (v.dialect == Dialect::host) {
        return host_main_kernel(k, v);
    }
    const std::string index = index_type(v);
    const MapCode map = map_code(k, v);
    std::string code = kernel_opening(Dialect::gpu, k.name, map.params);
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
    code += "        }\n    }\n}\n";
    return code;
}

std::string finish_kernel(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string index = index_type(v);
    const std::string params =
        "long long _m, long long _n, long long _split, int _lanes, "
        "const char* _partial, " +
        dims(v.out_ndim) + " _oshape" + scalar_params(k, v) + output_params(k, v);
    const std::string parts =
        "    const _type_reduce* const _parts = reinterpret_cast<const "
        "_type_reduce*>(_partial);\n";
    const std::string map = "            const auto _map = [&](const " + index +
                            " _J) -> _type_reduce {\n"
                            "                return _parts[_o * (" +
                            index + ")_split + _J];\n            };\n";
    std::string code = kernel_opening(v.dialect, finish_name(k), params);
    code += "    const _kiln_index _in_ind{_m * _n};\n    const _kiln_index _out_ind{_m};\n";
    if (v.dialect == Dialect::host) {
        code += parts + host_block_loop(index, false) + host_output_loop(index);
        code += "        " + start_accumulator(k) + "\n" + map;
        code += host_element_loop(k, index, "0", "(" + index + ")_split");
        code += "        " + post_map(k, v) + "    }\n    }\n}\n";
        return code + kernel_closing(Dialect::host, finish_name(k));
    }
    code += shared_storage(k);
    code += "    const int _tid = threadIdx.x;\n    const int _groups = blockDim.x / _lanes;\n";
    code += "    const int _lane = _tid % _lanes;\n    const int _group = _tid / _lanes;\n";
    code += "    const int _step = 1;\n";
    code += parts;
    code += "    for (" + index + " _first = (" + index + ")blockIdx.x * _groups; _first < (" +
            index + ")_m; _first += (" + index + ")gridDim.x * _groups) {\n";
    code += "        const " + index + " _o = _first + _group;\n";
    code += "        " + start_accumulator(k) + "\n";
    code += "        if (_o < (" + index + ")_m) {\n" + map;
    code += element_loop(k, index, "_lane", "(" + index + ")_split", "(" + index + ")_lanes") +
            "        }\n";
    code += "        " + block_reduce_call(k) + "\n";
    code += "        if (_lane == 0 && _o < (" + index + ")_m) {\n";
    code += "            " + post_map(k, v) + "        }\n    }\n}\n";
    return code;
}

}  // namespace

std::size_t reduce_type_size(const std::vector<DType>& members) {
    std::size_t size = 0;
    std::size_t align = 1;
    for (const DType member : members) {
        const std::size_t a = alignment(member);
        size = (size + a - 1) / a * a + itemsize(member);
        align = std::max(align, a);
    }
    return (size + align - 1) / align * align;
}

std::string finish_name(const ReductionDefinition& k) {
    return k.name + "_finish";
}

std::string reduction_source(const ReductionDefinition& k, const ReductionVariant& v) {
    return common_definitions(k, v) + main_kernel(k, v) + finish_kernel(k, v);
}

std::string variant_key(const ReductionVariant& v) {
    std::string key = std::to_string(v.out_ndim) + "/" + std::to_string(v.reduce_ndim) +
                      (v.index32 ? "i4" : "i8");
    if (v.dialect == Dialect::host) {
        key += "h" + std::to_string(static_cast<int>(v.host_layout));
    }
    for (std::size_t p = 0; p < v.in_dtypes.size(); ++p) {
        key += (v.in_scalar[p] ? "|s" : "|a") + std::to_string(static_cast<int>(v.in_dtypes[p]));
    }
    for (const DType d : v.out_dtypes) {
        key += "|o" + std::to_string(static_cast<int>(d));
    }
    for (const DType d : v.reduce_dtypes) {
        key += "|r" + std::to_string(static_cast<int>(d));
    }
    return key;
}

}  // namespace kiln::detail
