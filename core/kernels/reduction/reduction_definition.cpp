#include "reduction_definition.hpp"

#include <kiln/dtype.hpp>
#include <kiln/error.hpp>

#include <algorithm>
#include <string_view>

namespace kiln::detail {

namespace {

std::string trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\n\r");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\n\r");
    return std::string(text.substr(first, last - first + 1));
}

bool is_placeholder_of(const ReductionDefinition& k, const std::string& type) {
    auto uses = [&](const std::vector<ParamSpec>& list) {
        return std::any_of(list.begin(), list.end(),
                           [&](const ParamSpec& p) { return !p.dtype && p.placeholder == type; });
    };
    return uses(k.in) || uses(k.out);
}

std::vector<std::string> parse_reduce_types(const std::string& reduce_type,
                                            const ReductionDefinition& k) {
    std::vector<std::string> types;
    if (trim(reduce_type).empty()) {
        for (const auto& p : k.out) {
            types.push_back(p.dtype ? std::string(name(*p.dtype)) : p.placeholder);
        }
        return types;
    }
    std::string_view rest = reduce_type;
    while (true) {
        const auto comma = rest.find(',');
        std::string type = trim(rest.substr(0, comma));
        if (!dtype_from_spelling(type) && !is_placeholder_of(k, type)) {
            throw TypeError(reduction_prefix(k) + "reduce_type entry '" + type +
                            "' is neither a dtype name, the C type of one, nor a type "
                            "placeholder of the parameters");
        }
        types.push_back(std::move(type));
        if (comma == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(comma + 1);
    }
    return types;
}

}  // namespace

std::optional<DType> dtype_from_spelling(std::string_view type) {
    for (std::size_t d = 0; d < dtype_traits.size(); ++d) {
        if (dtype_traits.at(d).name == type || dtype_traits.at(d).c_type == type) {
            return static_cast<DType>(d);
        }
    }
    return std::nullopt;
}

std::string reduction_prefix(const ReductionDefinition& k) {
    return "kiln: " + k.label + ": ";
}

ReductionDefinition define_reduction(const std::string& in_params, const std::string& out_params,
                                     std::string map_expr, std::string reduce_expr,
                                     std::string post_map_expr, std::string identity,
                                     std::string name, const std::string& reduce_type,
                                     std::string preamble) {
    std::string label = "ReductionKernel '" + name + "'";
    ReductionDefinition k{std::move(name),
                          std::move(label),
                          std::move(map_expr),
                          std::move(reduce_expr),
                          std::move(post_map_expr),
                          std::move(identity),
                          {},
                          {},
                          {},
                          std::move(preamble),
                          true,
                          {}};
    if (!is_identifier(k.name)) {
        throw Error("kiln: ReductionKernel: '" + k.name +
                    "' is not a valid kernel name (expected a C identifier)");
    }
    k.in = parse_params(in_params, k.name, "in_params", KernelKind::reduction);
    k.out = parse_params(out_params, k.name, "out_params", KernelKind::reduction);
    check_kernel_params(k.name, k.in, k.out, KernelKind::reduction);
    if (k.out.empty()) {
        throw Error(reduction_prefix(k) + "out_params is empty (expected at least one output)");
    }
    for (const auto* list : {&k.in, &k.out}) {
        for (const auto& p : *list) {
            if (p.raw) {
                throw Error(reduction_prefix(k) + "parameter '" + p.name +
                            "' is raw, but a reduction reads and writes its arrays per element "
                            "(expected no raw parameters)");
            }
        }
    }
    k.reduce_types = parse_reduce_types(reduce_type, k);
    if (k.out.size() > 1 && k.reduce_types.size() == 1) {
        throw TypeError(reduction_prefix(k) + "has " + std::to_string(k.out.size()) +
                        " outputs, so reduce_type must list one type per tuple member (or be "
                        "empty for one member per output)");
    }
    return k;
}

}  // namespace kiln::detail
