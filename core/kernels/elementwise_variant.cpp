#include "elementwise_variant.hpp"

#include "../codegen/device_prelude.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <map>

namespace kiln::detail {

ElementwiseDefinition::ElementwiseDefinition(const std::string& in_params,
                                             const std::string& out_params, std::string operation,
                                             std::string name, ElementwiseOptions options)
    : name(std::move(name)), operation(std::move(operation)), options(std::move(options)) {
    if (!is_identifier(this->name)) {
        throw Error("kiln: ElementwiseKernel: '" + this->name +
                    "' is not a valid kernel name (expected a C identifier)");
    }
    in = parse_params(in_params, this->name, "in_params", KernelKind::elementwise);
    out = parse_params(out_params, this->name, "out_params", KernelKind::elementwise);
    check_kernel_params(this->name, in, out, KernelKind::elementwise);
    if (out.empty()) {
        throw Error("kiln: ElementwiseKernel '" + this->name +
                    "': out_params is empty (expected at least one output)");
    }
}

std::string variant_key(const ElementwiseVariant& variant) {
    std::string key = std::to_string(variant.ndim) + (variant.contiguous ? "c" : "s") +
                      (variant.index32 ? "4" : "8");
    for (const auto& op : variant.operands) {
        key += '|';
        key += std::to_string(static_cast<int>(op.kind));
        key += std::to_string(static_cast<int>(op.dtype));
        if (op.kind == OperandVariant::Kind::raw) {
            key += op.raw_contiguous ? "c" : std::to_string(op.raw_ndim);
        }
    }
    return key;
}

void check_variant(const ElementwiseDefinition& definition, const ElementwiseVariant& variant) {
    const std::string prefix = "kiln: ElementwiseKernel '" + definition.name + "': variant ";
    const std::size_t count = definition.in.size() + definition.out.size();
    if (variant.operands.size() != count) {
        throw Error(prefix + "has " + std::to_string(variant.operands.size()) +
                    " operands (expected one per parameter: " + std::to_string(count) + ")");
    }
    if (variant.ndim < 0 || (variant.contiguous && variant.ndim > 1)) {
        throw Error(prefix + "has rank " + std::to_string(variant.ndim) +
                    (variant.contiguous ? " and is contiguous (expected rank 0 or 1)"
                                        : " (expected a rank >= 0)"));
    }
    std::map<std::string, DType, std::less<>> placeholders;
    for (std::size_t p = 0; p < count; ++p) {
        const bool output = p >= definition.in.size();
        const ParamSpec& spec =
            output ? definition.out[p - definition.in.size()] : definition.in[p];
        const OperandVariant& op = variant.operands[p];
        const std::string subject = "operand '" + spec.name + "' ";
        using Kind = OperandVariant::Kind;
        if ((op.kind == Kind::raw) != spec.raw) {
            throw Error(prefix + subject + (spec.raw ? "must be raw" : "cannot be raw"));
        }
        if (output && op.kind == Kind::scalar) {
            throw Error(prefix + subject + "is an output and cannot be a scalar");
        }
        if (op.kind == Kind::raw && !op.raw_contiguous && op.raw_ndim < 1) {
            throw Error(prefix + subject + "has raw rank " + std::to_string(op.raw_ndim) +
                        " (expected >= 1)");
        }
        // A placeholder's first operand binds it; every later one must agree.
        const DType expected =
            spec.dtype ? *spec.dtype
                       : placeholders.try_emplace(spec.placeholder, op.dtype).first->second;
        if (op.dtype != expected) {
            throw Error(prefix + subject + "is " + std::string(kiln::name(op.dtype)) +
                        " but must be " + std::string(kiln::name(expected)));
        }
    }
}

std::string elementwise_support_source() {
    std::string source(device_prelude());
    source += R"(
template <int N> struct kiln_dims { long long v[N]; };
struct kiln_index { long long n; __device__ long long size() const { return n; } };
template <class T> struct kiln_raw_c {
    char* p;
    __device__ T& operator[](long long i) const { return reinterpret_cast<T*>(p)[i]; }
};
template <class T, int N> struct kiln_raw {
    char* p; long long shape[N]; long long strides[N];
    __device__ T& operator[](long long i) const {
        long long offset = 0;
        for (int d = N - 1; d >= 0; --d) { offset += (i % shape[d]) * strides[d]; i /= shape[d]; }
        return *reinterpret_cast<T*>(p + offset);
    }
};
)";
    return source;
}

std::string elementwise_kernel_source(const ElementwiseDefinition& definition,
                                      const ElementwiseVariant& variant,
                                      std::string_view entry_name) {
    check_variant(definition, variant);
    const std::string index = variant.index32 ? "int" : "long long";
    const std::string ndim = std::to_string(std::max(variant.ndim, 1));
    std::string params = "long long _n, kiln_dims<" + ndim + "> _shape";
    if (!variant.contiguous) {
        // Row mode when non-zero: blocks take whole rows of this many elements, so only the row
        // is unravelled and the threads step along the innermost axis.
        params += ", long long _row_length";
    }
    std::map<std::string, std::string> placeholder_types;
    std::string bindings;
    std::string offsets;
    std::string unravel;
    std::string row_offsets;  // row mode: the row's offsets (_q_), then each element's (_o_)
    std::string row_unravel;
    std::string inner_offsets;
    for (std::size_t p = 0; p < variant.operands.size(); ++p) {
        const bool output = p >= definition.in.size();
        const ParamSpec& spec =
            output ? definition.out[p - definition.in.size()] : definition.in[p];
        const OperandVariant& op = variant.operands[p];
        const std::string type(c_type(op.dtype));
        if (!spec.dtype) {
            placeholder_types[spec.placeholder] = type;
        }
        const std::string declared = spec.dtype ? type : spec.placeholder;
        switch (op.kind) {
            case OperandVariant::Kind::scalar:
                params += ", const " + declared + " " + spec.name;
                break;
            case OperandVariant::Kind::raw:
                params += ", " +
                          (op.raw_contiguous ? "kiln_raw_c<" + declared + ">"
                                             : "kiln_raw<" + declared + ", " +
                                                   std::to_string(op.raw_ndim) + ">") +
                          " " + spec.name;
                break;
            case OperandVariant::Kind::array: {
                const bool is_const = !output && !spec.non_const;
                params += ", char* _p_" + spec.name;
                if (!variant.contiguous) {
                    params += ", kiln_dims<" + ndim + "> _s_" + spec.name;
                    offsets += ", _o_" + spec.name + " = 0";
                    unravel +=
                        "            _o_" + spec.name + " += _k * _s_" + spec.name + ".v[_d];\n";
                    row_offsets += ", _q_" + spec.name + " = 0";
                    row_unravel +=
                        "            _q_" + spec.name + " += _k * _s_" + spec.name + ".v[_d];\n";
                    inner_offsets.append("        const ").append(index).append(" _o_");
                    inner_offsets.append(spec.name).append(" = _q_").append(spec.name);
                    inner_offsets.append(" + _c * (").append(index).append(")_s_");
                    inner_offsets.append(spec.name).append(".v[_last];\n");
                }
                std::string offset = "_o_" + spec.name;
                if (variant.contiguous) {
                    offset = "i * (" + index;
                    offset.append(")sizeof(").append(declared).append(")");
                }
                const std::string qualified = (is_const ? "const " : "") + declared;
                bindings.append("        ").append(qualified).append("& ").append(spec.name);
                bindings.append(" = *reinterpret_cast<").append(qualified).append("*>(_p_");
                bindings.append(spec.name).append(" + ").append(offset).append(");\n");
                break;
            }
        }
    }
    // Placeholders must be types before the parameter list uses them: typedef them at namespace
    // scope under the kernel's own names.
    std::string source;
    for (const auto& [placeholder, type] : placeholder_types) {
        source += "typedef " + type;
        source += " " + placeholder + ";\n";
    }
    source += definition.options.preamble + "\n";
    source += "extern \"C\" __global__ void " + std::string(entry_name) + "(" + params + ") {\n";
    source += "    const kiln_index _ind{_n};\n    " + definition.options.loop_prep + "\n";
    // The flat loop: a grid-stride loop over every element, unravelling each (strided variants).
    std::string flat = "    for (" + index + " i = blockIdx.x * (" + index +
                       ")blockDim.x + threadIdx.x; i < (" + index + ")_n; i += (" + index +
                       ")gridDim.x * blockDim.x) {\n";
    if (!variant.contiguous) {
        flat += "        " + index + " _r = i" + offsets + ";\n";
        flat += "        for (int _d = " + ndim + " - 1; _d >= 0; --_d) {\n";
        flat += "            const " + index + " _k = _r % (" + index + ")_shape.v[_d];\n";
        flat += "            _r /= (" + index + ")_shape.v[_d];\n" + unravel + "        }\n";
    }
    flat += bindings + "        " + definition.operation + ";\n    }\n";
    if (variant.contiguous) {
        source += flat;
    } else {
        // Row mode: a block per row, the row unravelled once, then the threads step along the
        // innermost axis by its stride.
        source += "    if (_row_length == 0) {\n" + flat + "    } else {\n";
        source += "    const int _last = " + ndim + " - 1;\n";
        source += "    const " + index + " _rows = (" + index + ")(_n / _row_length);\n";
        source += "    for (" + index + " _row = blockIdx.x; _row < _rows; _row += gridDim.x) {\n";
        source += "        " + index + " _r = _row" + row_offsets + ";\n";
        source += "        for (int _d = _last - 1; _d >= 0; --_d) {\n";
        source += "            const " + index + " _k = _r % (" + index + ")_shape.v[_d];\n";
        source += "            _r /= (" + index + ")_shape.v[_d];\n" + row_unravel + "        }\n";
        source += "        for (" + index + " _c = threadIdx.x; _c < (" + index +
                  ")_row_length; _c += blockDim.x) {\n";
        source += "        const " + index + " i = _row * (" + index + ")_row_length + _c;\n";
        source += inner_offsets + bindings + "        " + definition.operation + ";\n";
        source += "    }\n    }\n    }\n";
    }
    source += "    " + definition.options.after_loop + "\n}\n";
    return source;
}

std::string elementwise_source(const ElementwiseDefinition& definition,
                               const ElementwiseVariant& variant) {
    return elementwise_support_source() +
           elementwise_kernel_source(definition, variant, definition.name);
}

}  // namespace kiln::detail
