#include "reduction_source.hpp"

#include "../../codegen/device_header_texts.hpp"
#include "../../codegen/device_prelude.hpp"
#include "../../codegen/kernel_dialect.hpp"
#include "reduction_dialect.hpp"
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

std::string dims(std::size_t n) {
    return "_kiln_dims<" + std::to_string(n) + ">";
}

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

std::string output_params(const ReductionDefinition& k, const ReductionVariant& v) {
    std::string params;
    for (const auto& p : k.out) {
        params += ", char* _p_" + p.name + ", " + dims(v.out_ndim) + " _os_" + p.name;
    }
    return params;
}

std::string scalar_params(const ReductionDefinition& k, const ReductionVariant& v) {
    std::string params;
    for (std::size_t p = 0; p < k.in.size(); ++p) {
        if (v.in_scalar[p]) {
            params += ", const " + type_of(k.in[p], v.in_dtypes[p]) + " " + k.in[p].name;
        }
    }
    return params;
}

namespace {

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

std::string common_definitions(const ReductionDefinition& k, const ReductionVariant& v) {
    std::string code(device_prelude());
    code += type_definitions(k, v);
    code += k.preamble + "\n";
    code += header_text::reduction_support_h().text;
    code +=
        "__device__ __forceinline__ _type_reduce _kiln_reduce(const _type_reduce& a, "
        "const _type_reduce& b) {\n    return _type_reduce(" +
        k.reduce_expr + ");\n}\n";
    return code + dialect_of(v).reduction.support(k);
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
        "int _lanes_fast, char* _partial, unsigned int* _counter, int _finish_lanes, " +
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

FinishCode finish_code(const ReductionDefinition& k, const ReductionVariant& v) {
    const std::string index = index_type(v);
    FinishCode code;
    code.params =
        "long long _m, long long _n, long long _split, int _lanes, const char* _partial, " +
        dims(v.out_ndim) + " _oshape" + scalar_params(k, v) + output_params(k, v);
    code.partials =
        "    const _type_reduce* const _parts = reinterpret_cast<const _type_reduce*>(_partial);\n";
    code.map = "            const auto _map = [&](const " + index +
               " _J) -> _type_reduce {\n                return _parts[_o * (" + index +
               ")_split + _J];\n            };\n";
    return code;
}

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

const KernelDialect& dialect_of(const ReductionVariant& v) {
    return v.dialect != nullptr ? *v.dialect : active_kernel_dialect();
}

std::string reduction_source(const ReductionDefinition& k, const ReductionVariant& v) {
    const ReductionDialect& dialect = dialect_of(v).reduction;
    return common_definitions(k, v) + dialect.reduce_kernel(k, v) + dialect.finish_kernel(k, v);
}

std::string variant_key(const ReductionVariant& v) {
    std::string key = std::to_string(v.out_ndim) + "/" + std::to_string(v.reduce_ndim) +
                      (v.index32 ? "i4" : "i8");
    key += std::string(dialect_of(v).name) + std::to_string(static_cast<int>(v.layout));
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
