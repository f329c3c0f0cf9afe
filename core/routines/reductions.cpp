// The reductions of include/kiln/reductions.hpp: each is a row of map, combine, identity and
// post-map over kiln/ufunc.h, plus a rule for its dtypes, run as a ReductionKernel per
// reduction, accumulator dtype and output dtype.
#include "reductions.hpp"

#include <kiln/error.hpp>
#include <kiln/reductions.hpp>

#include <array>

#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace kiln {

namespace {

enum class Accumulate : std::uint8_t {
    widened,  // sum, prod: small integers to 64 bits
    mean,     // bool and integers to float64
    same,     // max, min
    boolean,  // all, any
    count,    // count_nonzero: int64
};

struct ReductionRoutine {
    std::string_view name;
    Accumulate accumulate;
    std::string_view map;       // over `x`, in the accumulator type `kiln_acc`
    std::string_view combine;   // of `a` and `b`
    std::string_view identity;  // empty: none, so an empty reduction is an error
    std::string_view post;      // writes `y` from `a`
    std::string_view kinds;     // the dtype kinds it takes (NumPy's kind letters)
};

constexpr std::string_view cast_map = "kiln::ufunc::cast<kiln_acc>(x)";
constexpr std::string_view cast_post = "y = kiln::ufunc::cast<kiln_out>(a)";
constexpr std::string_view nonzero_map = "kiln::ufunc::nonzero(kiln::ufunc::cast<kiln_in>(x))";

// clang-format off
constexpr ReductionRoutine sum_reduction{"sum", Accumulate::widened, cast_map,
    "kiln::ufunc::add(a, b)", "0", cast_post, "biufc"};
constexpr ReductionRoutine prod_reduction{"prod", Accumulate::widened, cast_map,
    "kiln::ufunc::multiply(a, b)", "1", cast_post, "biufc"};
constexpr ReductionRoutine mean_reduction{"mean", Accumulate::mean, cast_map, "a + b", "0",
    "y = kiln::ufunc::cast<kiln_out>(a / kiln_acc(_in_ind.size() / _out_ind.size()))", "biufc"};
constexpr ReductionRoutine max_reduction{"max", Accumulate::same, cast_map,
    "kiln::ufunc::maximum(a, b)", "", cast_post, "biuf"};
constexpr ReductionRoutine min_reduction{"min", Accumulate::same, cast_map,
    "kiln::ufunc::minimum(a, b)", "", cast_post, "biuf"};
constexpr ReductionRoutine all_reduction{"all", Accumulate::boolean, nonzero_map, "a && b", "true",
    "y = a", "biufc"};
constexpr ReductionRoutine any_reduction{"any", Accumulate::boolean, nonzero_map, "a || b", "false",
    "y = a", "biufc"};
constexpr ReductionRoutine count_nonzero_reduction{"count_nonzero", Accumulate::count,
    "(long long)kiln::ufunc::nonzero(kiln::ufunc::cast<kiln_in>(x))", "a + b", "0", "y = a",
    "biufc"};
// clang-format on

constexpr std::array<const ReductionRoutine*, 8> every_reduction = {
    &sum_reduction, &prod_reduction, &mean_reduction, &max_reduction,
    &min_reduction, &all_reduction,  &any_reduction,  &count_nonzero_reduction};

// The accumulator and the result dtype of `reduction` over `input`, NumPy's (and CuPy's for
// float16, which accumulates in float32).
std::pair<DType, DType> dtypes(const ReductionRoutine& reduction, DType input) {
    const char k = kind(input);
    switch (reduction.accumulate) {
        case Accumulate::widened:
            if (k == 'b' || (k == 'i' && input != DType::int64)) {
                return {DType::int64, DType::int64};
            }
            if (k == 'u' && input != DType::uint64) {
                return {DType::uint64, DType::uint64};
            }
            break;
        case Accumulate::mean:
            if (k == 'b' || k == 'i' || k == 'u') {
                return {DType::float64, DType::float64};
            }
            break;
        case Accumulate::same:
            break;
        case Accumulate::boolean:
            return {DType::bool_, DType::bool_};
        case Accumulate::count:
            return {DType::int64, DType::int64};
    }
    return {input == DType::float16 ? DType::float32 : input, input};
}

// The accumulator's type in kernel source: float16 accumulates in float.
std::string accumulator_type(DType dtype) {
    return std::string(dtype == DType::float16 ? "float" : c_type(dtype));
}

const ReductionKernel& kernel_for(const ReductionRoutine& reduction, DType input, DType accumulator,
                                  DType out) {
    static std::mutex mutex;
    static auto& kernels =
        *new std::map<std::tuple<const ReductionRoutine*, DType, DType, DType>, ReductionKernel>();
    const std::tuple key{&reduction, input, accumulator, out};
    const std::scoped_lock lock(mutex);
    auto found = kernels.find(key);
    if (found == kernels.end()) {
        ReductionOptions options;
        options.reduce_type = accumulator_type(accumulator);
        options.preamble = "#include <kiln/ufunc.h>\ntypedef " + std::string(c_type(input)) +
                           " kiln_in;\ntypedef " + accumulator_type(accumulator) +
                           " kiln_acc;\ntypedef " + std::string(c_type(out)) + " kiln_out;\n";
        found =
            kernels
                .emplace(key, ReductionKernel(
                                  std::string(name(input)) + " x", std::string(name(out)) + " y",
                                  std::string(reduction.map), std::string(reduction.combine),
                                  std::string(reduction.post), std::string(reduction.identity),
                                  "kiln_" + std::string(reduction.name), options))
                .first;
    }
    return found->second;
}

void check_kind(const ReductionRoutine& reduction, DType input) {
    if (reduction.kinds.find(kind(input)) == std::string_view::npos) {
        throw TypeError("kiln: " + std::string(reduction.name) + ": arrays of dtype " +
                        std::string(name(input)) + " are not supported");
    }
}

ndarray reduce(const ReductionRoutine& reduction, const ndarray& a, const ReduceOptions& options) {
    // Built only for an error: this runs at every call.
    const auto context = [&] { return "kiln: " + std::string(reduction.name) + ": "; };
    check_kind(reduction, a.dtype());
    auto [accumulator, result] = dtypes(reduction, a.dtype());
    if (options.dtype) {
        if (reduction.accumulate == Accumulate::boolean ||
            reduction.accumulate == Accumulate::count) {
            throw TypeError(context() + "takes no dtype: it returns " + std::string(name(result)));
        }
        if (!can_cast(a.dtype(), *options.dtype, Casting::same_kind)) {
            throw TypeError(context() + "the array's dtype " + std::string(name(a.dtype())) +
                            " cannot be cast to the requested dtype " +
                            std::string(name(*options.dtype)) + " under 'same_kind' casting");
        }
        result = *options.dtype;
        accumulator = result == DType::float16 ? DType::float32 : result;
    }
    ReductionCallOptions call;
    call.axis = options.axis;
    call.keepdims = options.keepdims;
    call.stream = options.stream;
    DType written = result;
    if (options.out) {
        if (!can_cast(result, options.out->dtype(), Casting::same_kind)) {
            throw TypeError(context() + "out has dtype " + std::string(name(options.out->dtype())) +
                            "; the result's dtype " + std::string(name(result)) +
                            " does not cast to it under 'same_kind' casting");
        }
        written = options.out->dtype();
        call.out = {*options.out};
    }
    const ReductionKernel& kernel = kernel_for(reduction, a.dtype(), accumulator, written);
    ndarray reduced = kernel({a}, call);
    return options.out ? *options.out : reduced;
}

}  // namespace

namespace detail {

std::vector<std::string_view> reduction_names() {
    std::vector<std::string_view> names;
    names.reserve(every_reduction.size());
    for (const ReductionRoutine* reduction : every_reduction) {
        names.push_back(reduction->name);
    }
    return names;
}

const ReductionKernel& reduction_kernel(std::string_view name, DType input) {
    for (const ReductionRoutine* reduction : every_reduction) {
        if (reduction->name == name) {
            check_kind(*reduction, input);
            const auto [accumulator, result] = dtypes(*reduction, input);
            return kernel_for(*reduction, input, accumulator, result);
        }
    }
    throw Error("kiln: no reduction named '" + std::string(name) + "'");
}

}  // namespace detail

ndarray sum(const ndarray& a, const ReduceOptions& options) {
    return reduce(sum_reduction, a, options);
}
ndarray prod(const ndarray& a, const ReduceOptions& options) {
    return reduce(prod_reduction, a, options);
}
ndarray mean(const ndarray& a, const ReduceOptions& options) {
    return reduce(mean_reduction, a, options);
}
ndarray max(const ndarray& a, const ReduceOptions& options) {
    return reduce(max_reduction, a, options);
}
ndarray min(const ndarray& a, const ReduceOptions& options) {
    return reduce(min_reduction, a, options);
}
ndarray amax(const ndarray& a, const ReduceOptions& options) {
    return reduce(max_reduction, a, options);
}
ndarray amin(const ndarray& a, const ReduceOptions& options) {
    return reduce(min_reduction, a, options);
}
ndarray all(const ndarray& a, const ReduceOptions& options) {
    return reduce(all_reduction, a, options);
}
ndarray any(const ndarray& a, const ReduceOptions& options) {
    return reduce(any_reduction, a, options);
}
ndarray count_nonzero(const ndarray& a, const ReduceOptions& options) {
    return reduce(count_nonzero_reduction, a, options);
}

}  // namespace kiln
