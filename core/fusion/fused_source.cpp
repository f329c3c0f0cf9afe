#include "fused_source.hpp"

#include "../kernels/builtin/builtin_kernels.hpp"
#include "../routines/reduction_routine.hpp"
#include "../routines/ufunc_call.hpp"

#include <kiln/error.hpp>
#include <kiln/float16.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace kiln::detail {

namespace {

std::string argument_name(std::int32_t position) {
    return "in" + std::to_string(position);
}

template <class T>
T read(const Node& node) {
    T value{};
    std::memcpy(&value, node.value.data(), sizeof(T));
    return value;
}

// A double as an exact device literal: hexadecimal, or kiln/limits.h's infinity and NaN.
std::string floating_literal(double value) {
    if (std::isnan(value)) {
        return "kiln::numeric_limits<double>::quiet_NaN()";
    }
    if (std::isinf(value)) {
        return std::string(value < 0 ? "-" : "") + "kiln::numeric_limits<double>::infinity()";
    }
    std::array<char, 64> text{};
    (void)std::snprintf(text.data(), text.size(), "%a", value);
    return text.data();
}

double floating_value(const Node& node) {
    switch (node.dtype) {
        case DType::float16:
            return static_cast<float>(read<half>(node));
        case DType::float32:
            return read<float>(node);
        default:
            return read<double>(node);
    }
}

// The constant's value as a device expression of its dtype.
std::string constant_literal(const Node& node) {
    const std::string type(c_type(node.dtype));
    switch (kind(node.dtype)) {
        case 'b':
            return read<bool>(node) ? "true" : "false";
        case 'i': {
            // A C++ integer constant converts to its dtype, so the int64 value is enough.
            const auto value = read<std::int64_t>(node);
            return value == std::numeric_limits<std::int64_t>::min()
                       ? "(-9223372036854775807LL - 1)"
                       : std::to_string(value) + "LL";
        }
        case 'u':
            return std::to_string(read<std::uint64_t>(node)) + "ULL";
        case 'f':
            return type + "(" + floating_literal(floating_value(node)) + ")";
        default: {
            const auto [re, im] =
                node.dtype == DType::complex64
                    ? std::pair<double, double>(read<std::complex<float>>(node).real(),
                                                read<std::complex<float>>(node).imag())
                    : std::pair<double, double>(read<std::complex<double>>(node).real(),
                                                read<std::complex<double>>(node).imag());
            const std::string part = node.dtype == DType::complex64 ? "float" : "double";
            return type + "(" + part + "(" + floating_literal(re) + "), " + part + "(" +
                   floating_literal(im) + "))";
        }
    }
}

// The statement computing `node` into a new temporary `target` from its operands' names.
std::string statement(const Node& node, const std::string& target,
                      const std::vector<std::string>& operands) {
    const std::string type(c_type(node.dtype));
    if (node.kind == NodeKind::constant) {
        return "const " + type + " " + target + " = " + constant_literal(node) + ";\n";
    }
    const auto bind = [&](std::initializer_list<const char*> names) {
        std::string code;
        std::size_t o = 0;
        for (const char* bound : names) {
            if (o < operands.size()) {
                code += std::string("const auto& ") + bound + " = " + operands[o] + ";\n";
            }
            ++o;
        }
        return code;
    };
    std::string code = type + " " + target + ";\n{\n";
    switch (node.kind) {
        case NodeKind::ufunc:
            code += bind({"x", "y", "w"}) + type + "& z = " + target + ";\n" +
                    ufunc_operation(*node.ufunc, node.loop, node.dtype) + "\n";
            break;
        case NodeKind::where:
            code += bind({"q", "x", "y"}) + type + "& z = " + target + ";\n" +
                    where_operation(node.loop, node.dtype) + "\n";
            break;
        default:  // astype
            code += bind({"s"}) + target + " = " + conversion(node.loop, node.dtype) + ";\n";
            break;
    }
    return code + "}\n";
}

// Statements computing nodes into temporaries `_t<id>`, each once, operands first. The
// reduction, when `reduced` names it, is a value already computed under that name.
class Emitter {
public:
    Emitter(const Graph& graph, std::string reduced)
        : graph_(graph), reduced_(std::move(reduced)), done_(graph.size(), false) {}

    [[nodiscard]] std::string name(std::int32_t id) const {
        const Node& node = graph_.node(id);
        switch (node.kind) {
            case NodeKind::array:
            case NodeKind::scalar:
                return argument_name(node.argument);
            case NodeKind::reduction:
                return reduced_;
            default:
                return "_t" + std::to_string(id);
        }
    }

    void emit(std::int32_t id) {
        const Node& node = graph_.node(id);
        if (done_[static_cast<std::size_t>(id)] || node.kind == NodeKind::array ||
            node.kind == NodeKind::scalar || node.kind == NodeKind::reduction) {
            return;
        }
        done_[static_cast<std::size_t>(id)] = true;
        std::vector<std::string> operands;
        for (int o = 0; o < node.arity(); ++o) {
            emit(node.operands.at(static_cast<std::size_t>(o)));
            operands.push_back(name(node.operands.at(static_cast<std::size_t>(o))));
        }
        code_ += statement(node, name(id), operands);
    }

    [[nodiscard]] const std::string& code() const noexcept { return code_; }

private:
    const Graph& graph_;
    std::string reduced_;
    std::vector<bool> done_;
    std::string code_;
};

// Every node `roots` depend on.
std::vector<bool> reachable(const Graph& graph, std::span<const std::int32_t> roots) {
    std::vector<bool> seen(graph.size(), false);
    std::vector<std::int32_t> pending(roots.begin(), roots.end());
    while (!pending.empty()) {
        const std::int32_t id = pending.back();
        pending.pop_back();
        if (seen[static_cast<std::size_t>(id)]) {
            continue;
        }
        seen[static_cast<std::size_t>(id)] = true;
        const Node& node = graph.node(id);
        for (int o = 0; o < node.arity(); ++o) {
            pending.push_back(node.operands.at(static_cast<std::size_t>(o)));
        }
    }
    return seen;
}

// The dtype each scalar argument is declared with: its own, or the first integer loop dtype it
// enters, so that the kernel's scalar conversion refuses a value the loop cannot represent, as
// NEP 50 and the eager ufuncs do.
std::map<std::int32_t, DType> scalar_dtypes(const Graph& graph, const std::vector<bool>& used) {
    std::map<std::int32_t, DType> declared;
    for (std::size_t id = 0; id < graph.size(); ++id) {
        const Node& node = graph.node(static_cast<std::int32_t>(id));
        if (node.kind == NodeKind::scalar && used[id]) {
            declared.emplace(node.argument, node.dtype);
        }
    }
    std::set<std::int32_t> settled;
    for (std::size_t id = 0; id < graph.size(); ++id) {
        const Node& node = graph.node(static_cast<std::int32_t>(id));
        const bool integer_loop = kind(node.loop) == 'i' || kind(node.loop) == 'u';
        if (!used[id] || !integer_loop ||
            (node.kind != NodeKind::ufunc && node.kind != NodeKind::where)) {
            continue;
        }
        for (int o = node.kind == NodeKind::where ? 1 : 0; o < node.arity(); ++o) {
            const Node& operand = graph.node(node.operands.at(static_cast<std::size_t>(o)));
            const char k = kind(operand.dtype);
            if (operand.kind == NodeKind::scalar && (k == 'i' || k == 'u') &&
                settled.insert(operand.argument).second) {
                declared[operand.argument] = node.loop;
            }
        }
    }
    return declared;
}

void add_parameters(FusedDefinition& fused, const Graph& graph, const std::vector<bool>& used) {
    const auto scalars = scalar_dtypes(graph, used);
    std::map<std::int32_t, std::string> params;
    for (std::size_t id = 0; id < graph.size(); ++id) {
        const Node& node = graph.node(static_cast<std::int32_t>(id));
        if (used[id] && node.kind == NodeKind::array) {
            params[node.argument] = std::string(name(node.dtype));
        } else if (used[id] && node.kind == NodeKind::scalar) {
            params[node.argument] = std::string(name(scalars.at(node.argument)));
        }
    }
    fused.scalars_only = true;
    for (const auto& [position, dtype] : params) {
        fused.in_params +=
            (fused.in_params.empty() ? "" : ", ") + dtype + " " + argument_name(position);
        fused.arguments.push_back(position);
    }
    for (std::size_t id = 0; id < graph.size(); ++id) {
        if (used[id] && graph.node(static_cast<std::int32_t>(id)).kind == NodeKind::array) {
            fused.scalars_only = false;
        }
    }
}

std::string assign_outputs(const Emitter& emitter, std::span<const std::int32_t> outputs) {
    std::string code;
    for (std::size_t o = 0; o < outputs.size(); ++o) {
        code += "out" + std::to_string(o) + " = " + emitter.name(outputs[o]) + ";\n";
    }
    return code;
}

void define_reduction(FusedDefinition& fused, const Graph& graph, std::int32_t output) {
    const Node& reduction = graph.node(graph.reduction());
    const Node& reduced = graph.node(reduction.operands[0]);
    const ReductionRoutine& routine = *reduction.routine;

    // The map is a function template of the kernel's inputs, as the kernel binds them.
    std::string types;
    std::string params;
    std::string call;
    for (const std::int32_t position : fused.arguments) {
        const std::string name = argument_name(position);
        const std::string type = "kiln_T" + std::to_string(position);
        types += types.empty() ? "class " : ", class ";
        types += type;
        params += params.empty() ? "const " : ", const ";
        params += type;
        params += "& ";
        params += name;
        call += call.empty() ? "" : ", ";
        call += name;
    }
    // The routine's scalar parameter (var's ddof, a norm's ord), bound under its name for the
    // routine's map and post-map text: a kernel argument, or a constant in a traced function.
    std::string parameter;
    if (reduction.operands[1] >= 0) {
        Emitter value(graph, "");
        value.emit(reduction.operands[1]);
        const std::string_view declared = routine.parameter;
        parameter = value.code() + "const auto " +
                    std::string(declared.substr(declared.rfind(' ') + 1)) + " = " +
                    value.name(reduction.operands[1]) + ";\n";
    }
    Emitter map(graph, "");
    map.emit(reduction.operands[0]);
    fused.preamble = routine_preamble(reduced.dtype, reduction.loop, reduction.dtype) +
                     "template <" + types +
                     ">\n__device__ __forceinline__ kiln_in kiln_fused_map(" + params + ") {\n" +
                     map.code() + "return " + map.name(reduction.operands[0]) + ";\n}\n";
    // The routine's map of the fused element, in the kernel's map, where _J (argmax's index) is.
    fused.map_expr = "[&]() -> _type_reduce {\n" + parameter + "const kiln_in x = kiln_fused_map(" +
                     call + ");\nreturn _type_reduce(" + std::string(routine.map) + ");\n}()";
    fused.reduce_expr = std::string(routine.combine);
    fused.identity = std::string(routine.identity);
    fused.reduce_type = reduce_type(routine, reduction.loop);
    fused.axis = reduction.all_axes ? Axis() : Axis(reduction.axes);
    fused.keepdims = reduction.keepdims;

    Emitter post(graph, "_r");
    post.emit(output);
    fused.post_map_expr = "kiln_out _r;\n{\n" + parameter + "kiln_out& y = _r;\n" +
                          std::string(routine.post) + ";\n}\n" + post.code() +
                          "out0 = " + post.name(output);
}

// The rolled chain's statements, after the prefix's: one block per step, each reading the
// values carried from the step before (`_c<id>`, named by the first step's node that produces
// them) and its own scalars, and leaving the step's last value in `_last`.
std::string rolled_steps(const Graph& graph, const RolledChain& chain, std::int32_t max_steps,
                         Emitter& prefix, const std::string& count) {
    const std::int32_t end = chain.prefix + chain.period;
    const auto carried = [&](std::int32_t id, std::size_t o) {
        const std::int32_t operand = graph.node(id).operands.at(o);
        return operand < chain.prefix && graph.node(id + chain.period).operands.at(o) != operand;
    };
    std::set<std::int32_t> carried_values;
    for (std::int32_t id = chain.prefix; id < end; ++id) {
        const Node& node = graph.node(id);
        for (std::size_t o = 0; o < static_cast<std::size_t>(node.arity()); ++o) {
            if (node.operands.at(o) < chain.prefix) {
                prefix.emit(node.operands.at(o));
            }
            if (carried(id, o)) {
                carried_values.insert(node.operands.at(o) + chain.period);
            }
        }
    }
    std::string code;
    for (const std::int32_t value : carried_values) {
        code += std::string(c_type(graph.node(value).dtype)) + " _c" + std::to_string(value) +
                " = " + prefix.name(value - chain.period) + ";\n";
    }
    code += std::string(c_type(graph.node(end - 1).dtype)) + " _last;\n";
    for (std::int32_t step = 0; step < max_steps; ++step) {
        code += step < 2 ? "{\n" : "if (" + count + " > " + std::to_string(step) + ") {\n";
        for (std::int32_t id = chain.prefix; id < end; ++id) {
            const Node& node = graph.node(id);
            if (node.kind == NodeKind::scalar) {
                continue;
            }
            std::vector<std::string> operands;
            for (std::size_t o = 0; o < static_cast<std::size_t>(node.arity()); ++o) {
                const std::int32_t operand = node.operands.at(o);
                const Node& read = graph.node(operand);
                if (operand < chain.prefix) {
                    operands.push_back(carried(id, o)
                                           ? "_c" + std::to_string(operand + chain.period)
                                           : prefix.name(operand));
                } else if (read.kind == NodeKind::scalar) {
                    operands.push_back(argument_name(read.argument + step * chain.scalars));
                } else {
                    operands.push_back("_t" + std::to_string(operand));
                }
            }
            code += statement(node, "_t" + std::to_string(id), operands);
        }
        for (const std::int32_t value : carried_values) {
            code += "_c" + std::to_string(value) + " = _t" + std::to_string(value) + ";\n";
        }
        code += "_last = _t" + std::to_string(end - 1) + ";\n}\n";
    }
    return code;
}

}  // namespace

FusedDefinition define_fused(const Graph& graph, std::span<const std::int32_t> outputs) {
    FusedDefinition fused;
    // Prefixed, so that a function named after a device function (norm, exp) does not clash.
    fused.name = "fused_" + graph.name();
    const std::vector<bool> used = reachable(graph, outputs);
    add_parameters(fused, graph, used);
    for (std::size_t o = 0; o < outputs.size(); ++o) {
        fused.out_params += (o == 0 ? "" : ", ") + std::string(name(graph.node(outputs[o]).dtype)) +
                            " out" + std::to_string(o);
    }
    const bool reduces = std::any_of(outputs.begin(), outputs.end(),
                                     [&](std::int32_t id) { return graph.reduced(id); });
    if (!reduces) {
        Emitter emitter(graph, "");
        for (const std::int32_t id : outputs) {
            emitter.emit(id);
        }
        fused.preamble = "#include <kiln/ufunc.h>\n";
        fused.operation = emitter.code() + assign_outputs(emitter, outputs);
        return fused;
    }
    if (outputs.size() > 1) {
        throw TypeError(graph.prefix() + "returns " + std::to_string(outputs.size()) +
                        " values and one follows the reduction '" +
                        std::string(graph.node(graph.reduction()).operation()) +
                        "'; a fused function with a reduction returns one value");
    }
    fused.reduction = true;
    define_reduction(fused, graph, outputs.front());
    return fused;
}

FusedDefinition define_rolled(const Graph& graph, const RolledChain& chain,
                              std::int32_t max_steps) {
    FusedDefinition fused;
    fused.name = "fused_" + graph.name() + "_rolled";
    const std::array<std::int32_t, 1> output{static_cast<std::int32_t>(graph.size()) - 1};
    const std::vector<bool> used = reachable(graph, output);
    const auto scalars = scalar_dtypes(graph, used);
    const auto add = [&fused](std::int32_t position, DType dtype) {
        fused.in_params += (fused.in_params.empty() ? "" : ", ") + std::string(name(dtype)) + " " +
                           argument_name(position);
        fused.arguments.push_back(position);
    };
    std::map<std::int32_t, DType> prefix;  // the prefix's arguments, by position
    fused.scalars_only = true;
    for (std::int32_t id = 0; id < chain.prefix; ++id) {
        const Node& node = graph.node(id);
        if (used[static_cast<std::size_t>(id)] && node.kind == NodeKind::array) {
            prefix.emplace(node.argument, node.dtype);
            fused.scalars_only = false;
        } else if (used[static_cast<std::size_t>(id)] && node.kind == NodeKind::scalar) {
            prefix.emplace(node.argument, scalars.at(node.argument));
        }
    }
    for (const auto& [position, dtype] : prefix) {
        add(position, dtype);
    }
    for (std::int32_t step = 0; step < max_steps; ++step) {
        for (std::int32_t s = 0; s < chain.scalars; ++s) {
            add(chain.first_scalar + step * chain.scalars + s, scalars.at(chain.first_scalar + s));
        }
    }
    const std::int32_t count = chain.first_scalar + max_steps * chain.scalars;
    add(count, DType::int64);
    fused.out_params = std::string(name(graph.node(output[0]).dtype)) + " out0";
    Emitter values(graph, "");
    const std::string steps = rolled_steps(graph, chain, max_steps, values, argument_name(count));
    fused.preamble = "#include <kiln/ufunc.h>\n";
    fused.operation = values.code() + steps + "out0 = _last;\n";
    return fused;
}

}  // namespace kiln::detail
