#include "elementwise_variant.hpp"

#include "../../codegen/device_header_texts.hpp"
#include "../../codegen/device_prelude.hpp"
#include "../../codegen/kernel_dialect.hpp"
#include "elementwise_dialect.hpp"
#include "elementwise_loops.hpp"

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

const KernelDialect& dialect_of(const ElementwiseVariant& variant) {
    return variant.dialect != nullptr ? *variant.dialect : active_kernel_dialect();
}

std::string variant_key(const ElementwiseVariant& variant) {
    std::string key = std::to_string(variant.ndim) + (variant.contiguous ? "c" : "s") +
                      (variant.index32 ? "4" : "8") + std::string(dialect_of(variant).name);
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
    source += "\n" + std::string(header_text::elementwise_support_h().text);
    return source;
}

std::vector<LoopOperand> loop_operands(const ElementwiseDefinition& definition,
                                       const ElementwiseVariant& variant) {
    std::vector<LoopOperand> operands;
    for (std::size_t p = 0; p < variant.operands.size(); ++p) {
        const bool output = p >= definition.in.size();
        const ParamSpec& spec =
            output ? definition.out[p - definition.in.size()] : definition.in[p];
        const OperandVariant& op = variant.operands[p];
        if (op.kind == OperandVariant::Kind::array) {
            operands.push_back({spec.name,
                                spec.dtype ? std::string(c_type(op.dtype)) : spec.placeholder,
                                itemsize(op.dtype), !output && !spec.non_const});
        }
    }
    return operands;
}

std::string elementwise_kernel_source(const ElementwiseDefinition& definition,
                                      const ElementwiseVariant& variant,
                                      std::string_view entry_name) {
    check_variant(definition, variant);
    const std::string ndim = std::to_string(std::max(variant.ndim, 1));
    std::string params = "long long _n, kiln_dims<" + ndim + "> _shape";
    if (!variant.contiguous) {
        // Row mode when _row_length is non-zero: blocks take whole rows of this many elements, so
        // only the row is unravelled. Tiled mode when _tile_columns is non-zero: on a GPU (2-d
        // variants only), blocks take 32x32 tiles, this many across; on the host, blocks of whole
        // rows are walked in tiles.
        params += ", long long _row_length, long long _tile_columns";
    }
    std::map<std::string, std::string> placeholder_types;
    LoopShape shape;
    shape.index = variant.index32 ? "int" : "long long";
    shape.ndim = std::max(variant.ndim, 1);
    shape.contiguous = variant.contiguous;
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
        const bool writable = output || spec.non_const;
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
                if (writable) {
                    shape.writable.push_back(spec.name + ".p");
                }
                break;
            case OperandVariant::Kind::array:
                params += ", char* _p_" + spec.name;
                if (!variant.contiguous) {
                    params += ", kiln_dims<" + ndim + "> _s_" + spec.name;
                }
                if (writable) {
                    shape.writable.push_back("_p_" + spec.name);
                }
                break;
        }
    }
    shape.operation = definition.operation;
    // Placeholders must be types before the parameter list uses them: typedef them at namespace
    // scope under the kernel's own names.
    std::string source;
    for (const auto& [placeholder, type] : placeholder_types) {
        source += "typedef " + type;
        source += " " + placeholder + ";\n";
    }
    source += definition.options.preamble + "\n";
    ElementwiseKernelParts parts{
        entry_name,
        std::move(params),
        "    const kiln_index _ind{_n};\n    " + definition.options.loop_prep + "\n",
        "    " + definition.options.after_loop + "\n}\n",
        loop_operands(definition, variant),
        std::move(shape)};
    return source + dialect_of(variant).elementwise.kernel(definition, variant, std::move(parts));
}

std::string elementwise_source(const ElementwiseDefinition& definition,
                               const ElementwiseVariant& variant) {
    return elementwise_support_source() +
           elementwise_kernel_source(definition, variant, definition.name);
}

}  // namespace kiln::detail
