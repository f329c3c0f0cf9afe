#include "elementwise_variant.hpp"

#include "../../codegen/device_prelude.hpp"
#include "../../codegen/kernel_entry.hpp"
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

std::string variant_key(const ElementwiseVariant& variant) {
    std::string key = std::to_string(variant.ndim) + (variant.contiguous ? "c" : "s") +
                      (variant.index32 ? "4" : "8") + (variant.dialect == Dialect::host ? "h" : "");
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
struct alignas(16) kiln_tile_unit { char bytes[16]; };
__device__ inline long long kiln_magnitude(long long v) { return v < 0 ? -v : v; }
)";
    return source;
}

namespace {

// Array operands bound per element, in parameter order.
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

bool has_tiled_mode(const ElementwiseVariant& variant, const std::vector<LoopOperand>& operands) {
    return !variant.contiguous && variant.ndim == 2 &&
           std::any_of(operands.begin(), operands.end(),
                       [](const LoopOperand& op) { return op.loaded; });
}

}  // namespace

int elements_per_thread(const ElementwiseDefinition& definition,
                        const ElementwiseVariant& variant) {
    std::size_t widest = 0;
    for (const auto& op : loop_operands(definition, variant)) {
        widest = op.loaded ? std::max(widest, op.itemsize) : widest;
    }
    if (widest == 0) {
        return 1;
    }
    // 32 bytes of each input in flight per thread, and at least two items, so that 16-byte items
    // (complex128) also keep two loads in flight: with one, a thread's next load waits for its
    // store, and complex128 |z|^2 reached 90.7% of copy on an H100 where float64 kernels with two
    // reached 95%. Four float64 items rather than two: 1% faster on an H100 (kiln::add of 1e8,
    // 0.820 - 0.826 ms against 0.829 - 0.836; clipped_relu 0.557 - 0.559 against 0.563 - 0.565).
    constexpr std::size_t bytes_per_load = 32;
    constexpr std::size_t least = 2;
    constexpr std::size_t most = 4;
    return static_cast<int>(std::clamp(bytes_per_load / widest, least, most));
}

std::size_t tiled_shared_bytes(const ElementwiseDefinition& definition,
                               const ElementwiseVariant& variant) {
    const auto operands = loop_operands(definition, variant);
    if (!has_tiled_mode(variant, operands)) {
        return 0;
    }
    std::size_t bytes = 0;
    for (const auto& op : operands) {
        bytes += op.loaded ? tile_bytes(op.itemsize) : 0;
    }
    return bytes;
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
    const auto operands = loop_operands(definition, variant);
    const bool host = variant.dialect == Dialect::host;
    shape.elements_per_thread = host ? 1 : elements_per_thread(definition, variant);
    shape.tiled = !host && has_tiled_mode(variant, operands);
    shape.operation = definition.operation;
    // Placeholders must be types before the parameter list uses them: typedef them at namespace
    // scope under the kernel's own names.
    std::string source;
    for (const auto& [placeholder, type] : placeholder_types) {
        source += "typedef " + type;
        source += " " + placeholder + ";\n";
    }
    source += definition.options.preamble + "\n";
    const std::string prologue =
        "    const kiln_index _ind{_n};\n    " + definition.options.loop_prep + "\n";
    const std::string epilogue = "    " + definition.options.after_loop + "\n}\n";
    if (host) {
        return source + kernel_opening(variant.dialect, entry_name, params) + prologue +
               elementwise_host_loops(operands, shape) + epilogue +
               kernel_closing(variant.dialect, entry_name);
    }
    // Strided variants carry three modes' index arithmetic: held to the registers that keep 8
    // blocks resident, they keep enough loads in flight (measured: row mode 86% -> 89% of copy
    // bandwidth, tiled 51% -> 58%). Contiguous ones gained nothing measurable, so heavy
    // operations there keep every register they need.
    const std::string bounds =
        variant.contiguous ? ""
                           : "__launch_bounds__(" + std::to_string(elementwise_block) + ", 8) ";
    return source + kernel_opening(variant.dialect, entry_name, params, bounds) + prologue +
           elementwise_loops(operands, shape) + epilogue;
}

std::string elementwise_source(const ElementwiseDefinition& definition,
                               const ElementwiseVariant& variant) {
    return elementwise_support_source() +
           elementwise_kernel_source(definition, variant, definition.name);
}

}  // namespace kiln::detail
