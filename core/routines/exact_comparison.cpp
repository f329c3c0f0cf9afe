#include "exact_comparison.hpp"

#include "ufunc_table.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kiln::detail {

namespace {

// A comparison's answer when x is below y and when it is above, and its exact expression.
struct Outcomes {
    const UfuncDefinition* ufunc;
    bool below;
    bool above;
    std::string_view exact;
};

constexpr std::array<Outcomes, 6> comparisons{{
    {&ufuncs::equal, false, false, "kiln::ufunc::integer_equal(x, y)"},
    {&ufuncs::not_equal, true, true, "!kiln::ufunc::integer_equal(x, y)"},
    {&ufuncs::less, true, false, "kiln::ufunc::integer_less(x, y)"},
    {&ufuncs::less_equal, true, false, "!kiln::ufunc::integer_less(y, x)"},
    {&ufuncs::greater, false, true, "kiln::ufunc::integer_less(y, x)"},
    {&ufuncs::greater_equal, false, true, "!kiln::ufunc::integer_less(x, y)"},
}};

bool integral(DType dtype) {
    return kind(dtype) == 'i' || kind(dtype) == 'u';
}

const Outcomes* comparison(const UfuncDefinition& ufunc) {
    const auto* row = std::ranges::find(comparisons, &ufunc, &Outcomes::ufunc);
    return row == comparisons.end() ? nullptr : &*row;
}

bool negative(const Scalar& scalar) {
    if (kind(scalar.dtype()) != 'i') {
        return false;
    }
    const auto bytes = scalar.bytes_as(DType::int64);
    std::int64_t value = 0;
    std::memcpy(&value, bytes.data(), sizeof value);
    return value < 0;
}

bool fits(const Scalar& scalar, DType loop) {
    try {
        (void)scalar.bytes_as(loop);
        return true;
    } catch (const TypeError&) {
        return false;
    }
}

}  // namespace

std::optional<bool> out_of_range_comparison(const UfuncDefinition& ufunc,
                                            std::span<const Argument> args, DType loop) {
    const Outcomes* row = comparison(ufunc);
    if (row == nullptr || !integral(loop)) {
        return std::nullopt;
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto* scalar = std::get_if<Scalar>(&args[i]);
        if (scalar == nullptr || !integral(scalar->dtype()) || fits(*scalar, loop)) {
            continue;
        }
        // Outside the range, a scalar is below every element when negative, else above all.
        const bool x_below = negative(*scalar) == (i == 0);
        return x_below ? row->below : row->above;
    }
    return std::nullopt;
}

bool compares_integers_exactly(const UfuncDefinition& ufunc, std::span<const DType> dtypes,
                               DType promoted) {
    return comparison(ufunc) != nullptr && !integral(promoted) &&
           std::ranges::all_of(dtypes, integral);
}

const ElementwiseKernel* integer_comparison_kernel(const UfuncDefinition& ufunc,
                                                   std::span<const Argument> args, DType promoted,
                                                   DType out) {
    if (comparison(ufunc) == nullptr) {
        return nullptr;  // before collecting the dtypes: most ufuncs are no comparison
    }
    std::vector<DType> dtypes;
    for (const Argument& arg : args) {
        const auto* array = std::get_if<ndarray>(&arg);
        dtypes.push_back(array != nullptr ? array->dtype() : std::get<Scalar>(arg).dtype());
    }
    if (!compares_integers_exactly(ufunc, dtypes, promoted)) {
        return nullptr;
    }
    const Outcomes* row = comparison(ufunc);
    static std::mutex mutex;
    static auto& kernels =
        *new std::map<std::pair<const UfuncDefinition*, DType>, ElementwiseKernel>();
    const std::pair key{&ufunc, out};
    const std::scoped_lock lock(mutex);
    auto found = kernels.find(key);
    if (found == kernels.end()) {
        ElementwiseOptions options;
        options.preamble = "#include <kiln/ufunc.h>\n";
        const std::string operation = "z = kiln::ufunc::cast<" + std::string(c_type(out)) + ">(" +
                                      std::string(row->exact) + ");";
        found = kernels
                    .emplace(key, ElementwiseKernel(
                                      "X x, Y y", std::string(name(out)) + " z", operation,
                                      "kiln_" + std::string(ufunc.name) + "_integers", options))
                    .first;
    }
    return &found->second;
}

}  // namespace kiln::detail
