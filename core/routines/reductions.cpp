// The reductions of include/kiln/reductions.hpp, as rows of ReductionRoutine.
#include "reductions.hpp"

#include "reduction_routine.hpp"

#include <kiln/error.hpp>
#include <kiln/reductions.hpp>

#include <array>
#include <string>

namespace kiln {

namespace {

using detail::Accumulate;
using detail::ReductionRoutine;

#define KILN_ACC(x) "kiln::ufunc::cast<kiln_acc>(" x ")"
#define KILN_OUT(x) "y = kiln::ufunc::cast<kiln_out>(" x ")"
// NaN counts as the reduction's identity, and a count of the values that are not NaN.
#define KILN_NAN_TO(identity) "kiln::ufunc::nan_to(" KILN_ACC("x") ", kiln_acc(" identity "))"
#define KILN_NOT_NAN "kiln::ufunc::isnan(" KILN_ACC("x") ") ? 0 : 1"

constexpr std::string_view nonzero_map = "kiln::ufunc::nonzero(kiln::ufunc::cast<kiln_in>(x))";
constexpr std::string_view index_map = KILN_ACC("x") ", _J";
// var and std reduce Welford's count, mean and sum of squared deviations, combined as Chan's.
constexpr std::string_view moments_map = "1, " KILN_ACC("x") ", 0";
constexpr std::string_view nan_moments_map = KILN_NOT_NAN ", " KILN_NAN_TO("0") ", 0";
constexpr std::string_view moments = "kiln::ufunc::welford(a, b)";

// clang-format off
constexpr ReductionRoutine sum_reduction{"sum", Accumulate::widened, KILN_ACC("x"),
    "kiln::ufunc::add(a, b)", "0", KILN_OUT("a"), "biufc"};
constexpr ReductionRoutine prod_reduction{"prod", Accumulate::widened, KILN_ACC("x"),
    "kiln::ufunc::multiply(a, b)", "1", KILN_OUT("a"), "biufc"};
constexpr ReductionRoutine mean_reduction{"mean", Accumulate::mean, KILN_ACC("x"), "a + b", "0",
    KILN_OUT("a / kiln_acc(_in_ind.size() / _out_ind.size())"), "biufc"};
constexpr ReductionRoutine max_reduction{"max", Accumulate::same, KILN_ACC("x"),
    "kiln::ufunc::maximum(a, b)", "", KILN_OUT("a"), "biuf"};
constexpr ReductionRoutine min_reduction{"min", Accumulate::same, KILN_ACC("x"),
    "kiln::ufunc::minimum(a, b)", "", KILN_OUT("a"), "biuf"};
constexpr ReductionRoutine all_reduction{"all", Accumulate::boolean, nonzero_map, "a && b", "true",
    "y = a", "biufc"};
constexpr ReductionRoutine any_reduction{"any", Accumulate::boolean, nonzero_map, "a || b", "false",
    "y = a", "biufc"};
constexpr ReductionRoutine count_nonzero_reduction{"count_nonzero", Accumulate::count,
    "(long long)kiln::ufunc::nonzero(kiln::ufunc::cast<kiln_in>(x))", "a + b", "0", "y = a",
    "biufc"};
constexpr ReductionRoutine argmax_reduction{"argmax", Accumulate::index, index_map,
    "kiln::ufunc::arg_max(a, b)", "", "y = a._1", "biuf", "ai"};
constexpr ReductionRoutine argmin_reduction{"argmin", Accumulate::index, index_map,
    "kiln::ufunc::arg_min(a, b)", "", "y = a._1", "biuf", "ai"};
constexpr ReductionRoutine var_reduction{"var", Accumulate::real, moments_map, moments, "0, 0, 0",
    KILN_OUT("kiln::ufunc::variance(a, ddof)"), "biufc", "iar", "int64 ddof"};
constexpr ReductionRoutine std_reduction{"std", Accumulate::real, moments_map, moments, "0, 0, 0",
    KILN_OUT("kiln::ufunc::sqrt(kiln::ufunc::variance(a, ddof))"), "biufc", "iar", "int64 ddof"};
// The NaN-ignoring forms take floating and complex arrays; of others they are the plain forms.
constexpr ReductionRoutine nansum_reduction{"nansum", Accumulate::same, KILN_NAN_TO("0"), "a + b",
    "0", KILN_OUT("a"), "fc"};
constexpr ReductionRoutine nanprod_reduction{"nanprod", Accumulate::same, KILN_NAN_TO("1"),
    "a * b", "1", KILN_OUT("a"), "fc"};
constexpr ReductionRoutine nanmax_reduction{"nanmax", Accumulate::same, KILN_ACC("x"),
    "kiln::ufunc::fmax(a, b)", "", KILN_OUT("a"), "f"};
constexpr ReductionRoutine nanmin_reduction{"nanmin", Accumulate::same, KILN_ACC("x"),
    "kiln::ufunc::fmin(a, b)", "", KILN_OUT("a"), "f"};
constexpr ReductionRoutine nanmean_reduction{"nanmean", Accumulate::same,
    KILN_NAN_TO("0") ", " KILN_NOT_NAN, "a._0 + b._0, a._1 + b._1", "0, 0",
    KILN_OUT("a._0 / kiln_acc(a._1)"), "fc", "ai"};
constexpr ReductionRoutine nanvar_reduction{"nanvar", Accumulate::real, nan_moments_map, moments,
    "0, 0, 0", KILN_OUT("kiln::ufunc::nan_variance(a, ddof)"), "fc", "iar", "int64 ddof"};
constexpr ReductionRoutine nanstd_reduction{"nanstd", Accumulate::real, nan_moments_map, moments,
    "0, 0, 0", KILN_OUT("kiln::ufunc::sqrt(kiln::ufunc::nan_variance(a, ddof))"), "fc", "iar",
    "int64 ddof"};
// clang-format on

#undef KILN_ACC
#undef KILN_OUT
#undef KILN_NAN_TO
#undef KILN_NOT_NAN

constexpr std::array every_reduction = {
    &sum_reduction,     &prod_reduction,    &mean_reduction,   &max_reduction,
    &min_reduction,     &all_reduction,     &any_reduction,    &count_nonzero_reduction,
    &argmax_reduction,  &argmin_reduction,  &var_reduction,    &std_reduction,
    &nansum_reduction,  &nanprod_reduction, &nanmax_reduction, &nanmin_reduction,
    &nanmean_reduction, &nanvar_reduction,  &nanstd_reduction};

bool inexact(DType dtype) {
    return kind(dtype) == 'f' || kind(dtype) == 'c';
}

// argmax and argmin take one axis or all of them (NumPy's axis=None, the flattened array).
ndarray arg_reduce(const ReductionRoutine& routine, const ndarray& a,
                   const ReduceOptions& options) {
    if (options.axis.axes().size() > 1) {
        throw TypeError("kiln: " + std::string(routine.name) +
                        ": takes one axis or every axis (the flattened array), not " +
                        std::to_string(options.axis.axes().size()));
    }
    return detail::reduce(routine, a, options);
}

ndarray moments_reduce(const ReductionRoutine& routine, const ndarray& a,
                       const ReduceOptions& options) {
    return detail::reduce(routine, a, options, Scalar(static_cast<std::int64_t>(options.ddof)));
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

const ReductionRoutine* find_reduction(std::string_view name) noexcept {
    for (const ReductionRoutine* reduction : every_reduction) {
        if (reduction->name == name) {
            return reduction;
        }
    }
    return nullptr;
}

const ReductionKernel& reduction_kernel(std::string_view name, DType input) {
    for (const ReductionRoutine* reduction : every_reduction) {
        if (reduction->name == name) {
            check_kind(*reduction, input);
            const auto [accumulator, result] = routine_dtypes(*reduction, input);
            return routine_kernel(*reduction, input, accumulator, result);
        }
    }
    throw Error("kiln: no reduction named '" + std::string(name) + "'");
}

}  // namespace detail

ndarray sum(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(sum_reduction, a, options);
}
ndarray prod(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(prod_reduction, a, options);
}
ndarray mean(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(mean_reduction, a, options);
}
ndarray var(const ndarray& a, const ReduceOptions& options) {
    return moments_reduce(var_reduction, a, options);
}
ndarray std(const ndarray& a, const ReduceOptions& options) {
    return moments_reduce(std_reduction, a, options);
}
ndarray max(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(max_reduction, a, options);
}
ndarray min(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(min_reduction, a, options);
}
ndarray amax(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(max_reduction, a, options);
}
ndarray amin(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(min_reduction, a, options);
}
ndarray argmax(const ndarray& a, const ReduceOptions& options) {
    return arg_reduce(argmax_reduction, a, options);
}
ndarray argmin(const ndarray& a, const ReduceOptions& options) {
    return arg_reduce(argmin_reduction, a, options);
}
ndarray all(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(all_reduction, a, options);
}
ndarray any(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(any_reduction, a, options);
}
ndarray count_nonzero(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(count_nonzero_reduction, a, options);
}

ndarray nansum(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(inexact(a.dtype()) ? nansum_reduction : sum_reduction, a, options);
}
ndarray nanprod(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(inexact(a.dtype()) ? nanprod_reduction : prod_reduction, a, options);
}
ndarray nanmean(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(inexact(a.dtype()) ? nanmean_reduction : mean_reduction, a, options);
}
ndarray nanvar(const ndarray& a, const ReduceOptions& options) {
    return moments_reduce(inexact(a.dtype()) ? nanvar_reduction : var_reduction, a, options);
}
ndarray nanstd(const ndarray& a, const ReduceOptions& options) {
    return moments_reduce(inexact(a.dtype()) ? nanstd_reduction : std_reduction, a, options);
}
ndarray nanmax(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(kind(a.dtype()) == 'f' ? nanmax_reduction : max_reduction, a, options);
}
ndarray nanmin(const ndarray& a, const ReduceOptions& options) {
    return detail::reduce(kind(a.dtype()) == 'f' ? nanmin_reduction : min_reduction, a, options);
}

}  // namespace kiln
