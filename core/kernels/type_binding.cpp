#include "type_binding.hpp"

#include <kiln/error.hpp>

#include <cstddef>
#include <string>

namespace kiln::detail {

namespace {

// One parameter with what the call passed for it, in binding order (outputs, then inputs).
struct BoundParam {
    const ParamSpec* param;
    std::string_view which;
    ArgumentType argument;
};

// Where a placeholder's dtype came from, for the message when another array disagrees.
struct Binding {
    DType dtype;
    const BoundParam* source;
};

// "out_params 'z'"
std::string describe(const BoundParam& bound) {
    return std::string(bound.which) + " '" + bound.param->name + "'";
}

std::string names_of(const std::vector<ParamSpec>& params) {
    std::string names;
    for (const ParamSpec& param : params) {
        names += names.empty() ? "" : ", ";
        names += param.name;
    }
    return names;
}

std::string count_of(std::size_t count, std::string_view noun) {
    return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

// "kernel 'add'", which every message names.
std::string subject_of(std::string_view kernel) {
    return "kernel '" + std::string(kernel) + "'";
}

// "kiln: kernel 'add': "
std::string context_of(std::string_view kernel) {
    return "kiln: " + subject_of(kernel) + ": ";
}

// Pairs every parameter with its argument and rejects arguments no binding could accept.
std::vector<BoundParam> pair_arguments(std::string_view kernel, const std::vector<ParamSpec>& in,
                                       const std::vector<ParamSpec>& out,
                                       std::span<const ArgumentType> in_args,
                                       std::span<const ArgumentType> out_args) {
    const std::string context = context_of(kernel);
    if (in_args.size() != in.size()) {
        throw TypeError(context + "expected " + count_of(in.size(), "input argument") + " (" +
                        names_of(in) + "), got " + std::to_string(in_args.size()));
    }
    if (out_args.size() > out.size()) {
        throw TypeError(context + "expected at most " + count_of(out.size(), "output argument") +
                        " (" + names_of(out) + "), got " + std::to_string(out_args.size()));
    }
    std::vector<BoundParam> bound;
    for (std::size_t index = 0; index < out.size(); ++index) {
        bound.push_back(
            {&out[index], "out_params",
             index < out_args.size() ? out_args[index] : ArgumentType{ArgumentType::absent}});
    }
    for (std::size_t index = 0; index < in.size(); ++index) {
        bound.push_back({&in[index], "in_params", in_args[index]});
    }
    for (const BoundParam& entry : bound) {
        const bool is_output = entry.which == "out_params";
        switch (entry.argument.kind) {
            case ArgumentType::array:
                break;
            case ArgumentType::scalar:
                if (is_output) {
                    throw TypeError(context + describe(entry) +
                                    " got a scalar (expected an output array, or none to have "
                                    "one allocated)");
                }
                break;
            case ArgumentType::absent:
                if (!is_output) {
                    throw TypeError(context + describe(entry) +
                                    " got no argument (expected an array or a scalar)");
                }
                continue;
            default:
                throw TypeError(context + describe(entry) + ": invalid ArgumentType::Kind value " +
                                std::to_string(static_cast<unsigned>(entry.argument.kind)) +
                                " (expected array, scalar or absent)");
        }
        (void)checked_index(entry.argument.dtype, subject_of(kernel) + ": " + describe(entry));
    }
    return bound;
}

// Throws TypeError: no argument binds `placeholder`, which the parameters in `bound` use.
[[noreturn]] void throw_unbound(std::string_view kernel, const std::string& placeholder,
                                const std::vector<BoundParam>& bound) {
    std::string users;
    for (const BoundParam& entry : bound) {
        if (!entry.param->dtype && entry.param->placeholder == placeholder) {
            users += users.empty() ? "" : ", ";
            users += describe(entry);
        }
    }
    throw TypeError(context_of(kernel) + "type placeholder " + placeholder + " of " + users +
                    " is bound by no argument (expected an argument for a parameter of type " +
                    placeholder + ": an input array or scalar, or an output array)");
}

}  // namespace

std::map<std::string, DType, std::less<>> bind_types(std::string_view kernel,
                                                     const std::vector<ParamSpec>& in,
                                                     const std::vector<ParamSpec>& out,
                                                     std::span<const ArgumentType> in_args,
                                                     std::span<const ArgumentType> out_args) {
    const std::string context = context_of(kernel);
    const std::vector<BoundParam> bound = pair_arguments(kernel, in, out, in_args, out_args);
    std::map<std::string, Binding, std::less<>> bindings;
    for (const BoundParam& entry : bound) {
        if (entry.argument.kind != ArgumentType::array) {
            continue;
        }
        const DType given = entry.argument.dtype;
        const ParamSpec& param = *entry.param;
        if (param.dtype) {
            if (*param.dtype != given) {
                throw TypeError(context + describe(entry) + " has dtype " +
                                std::string(name(*param.dtype)) + " but its argument is a " +
                                std::string(name(given)) + " array (expected an array of exactly " +
                                std::string(name(*param.dtype)) + ", or a scalar)");
            }
            continue;
        }
        const auto [found, inserted] =
            bindings.try_emplace(param.placeholder, Binding{given, &entry});
        if (!inserted && found->second.dtype != given) {
            throw TypeError(context + "type placeholder " + param.placeholder + " is " +
                            std::string(name(found->second.dtype)) + " from " +
                            describe(*found->second.source) + " but " + describe(entry) + " is a " +
                            std::string(name(given)) +
                            " array (expected arrays of one dtype for one placeholder)");
        }
    }
    // CuPy lets a scalar decide a placeholder only when no array has.
    for (const BoundParam& entry : bound) {
        if (entry.argument.kind == ArgumentType::scalar && !entry.param->dtype) {
            bindings.try_emplace(entry.param->placeholder, Binding{entry.argument.dtype, &entry});
        }
    }
    std::map<std::string, DType, std::less<>> result;
    for (const BoundParam& entry : bound) {
        if (entry.param->dtype) {
            continue;
        }
        const auto found = bindings.find(entry.param->placeholder);
        if (found == bindings.end()) {
            throw_unbound(kernel, entry.param->placeholder, bound);
        }
        result.emplace(entry.param->placeholder, found->second.dtype);
    }
    return result;
}

DType resolved_dtype(const ParamSpec& p, const std::map<std::string, DType, std::less<>>& binding) {
    if (p.dtype) {
        return *p.dtype;
    }
    const auto found = binding.find(p.placeholder);
    if (found == binding.end()) {
        throw TypeError("kiln: resolved_dtype: type placeholder '" + p.placeholder +
                        "' of parameter '" + p.name +
                        "' is not bound (expected a binding from "
                        "bind_types for the same parameters)");
    }
    return found->second;
}

}  // namespace kiln::detail
