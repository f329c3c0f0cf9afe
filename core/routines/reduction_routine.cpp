#include "reduction_routine.hpp"

#include "../backend.hpp"
#include "../backend_traits.hpp"
#include "../kernels/reduction/reduction_definition.hpp"
#include "deferred_calls.hpp"
#include "promotion.hpp"

#include <kiln/error.hpp>

#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace kiln::detail {

namespace {

bool integral(DType dtype) {
    const char k = kind(dtype);
    return k == 'b' || k == 'i' || k == 'u';
}

// The accumulator's type in kernel source: float16 accumulates in float.
std::string accumulator_type(DType dtype) {
    return std::string(dtype == DType::float16 ? "float" : c_type(dtype));
}

std::string in_params(const ReductionRoutine& routine, DType input) {
    std::string params = std::string(name(input)) + " x";
    if (!routine.parameter.empty()) {
        params += ", " + std::string(routine.parameter);
    }
    return params;
}

}  // namespace

std::string reduce_type(const ReductionRoutine& routine, DType accumulator) {
    std::string type;
    for (const char member : routine.members) {
        type += type.empty() ? "" : ", ";
        switch (member) {
            case 'a':
                type += accumulator_type(accumulator);
                break;
            case 'r':
                type += accumulator_type(real_dtype(accumulator));
                break;
            default:
                type += "int64";
                break;
        }
    }
    return type;
}

std::string routine_preamble(DType input, DType accumulator, DType out) {
    return "#include <kiln/ufunc.h>\ntypedef " + std::string(c_type(input)) +
           " kiln_in;\ntypedef " + accumulator_type(accumulator) + " kiln_acc;\ntypedef " +
           accumulator_type(real_dtype(accumulator)) + " kiln_real;\ntypedef " +
           std::string(c_type(out)) + " kiln_out;\n";
}

std::pair<DType, DType> routine_dtypes(const ReductionRoutine& routine, DType input) {
    const char k = kind(input);
    const DType floating = input == DType::float16 ? DType::float32 : input;
    switch (routine.accumulate) {
        case Accumulate::widened:
            if (k == 'b' || (k == 'i' && input != DType::int64)) {
                return {DType::int64, DType::int64};
            }
            if (k == 'u' && input != DType::uint64) {
                return {DType::uint64, DType::uint64};
            }
            break;
        case Accumulate::mean:
            if (integral(input)) {
                return {DType::float64, DType::float64};
            }
            break;
        case Accumulate::same:
            break;
        case Accumulate::boolean:
            return {DType::bool_, DType::bool_};
        case Accumulate::count:
            return {DType::int64, DType::int64};
        case Accumulate::index:
            return {floating, DType::int64};
        case Accumulate::real:
            if (integral(input)) {
                return {DType::float64, DType::float64};
            }
            return {floating, real_dtype(input)};
    }
    return {floating, input};
}

void check_kind(const ReductionRoutine& routine, DType input) {
    if (routine.kinds.find(kind(input)) == std::string_view::npos) {
        throw TypeError("kiln: " + std::string(routine.name) + ": arrays of dtype " +
                        std::string(name(input)) + " are not supported");
    }
}

const ReductionKernel& routine_kernel(const ReductionRoutine& routine, DType input,
                                      DType accumulator, DType out) {
    static std::mutex mutex;
    static auto& kernels =
        *new std::map<std::tuple<const ReductionRoutine*, DType, DType, DType>, ReductionKernel>();
    const std::tuple key{&routine, input, accumulator, out};
    const std::scoped_lock lock(mutex);
    auto found = kernels.find(key);
    if (found == kernels.end()) {
        ReductionOptions options;
        options.reduce_type = reduce_type(routine, accumulator);
        options.preamble = routine_preamble(input, accumulator, out);
        // Each operation rounded on its own, as lazy fusion's kernels are, so that a routine fused
        // with a deferred chain (var's moments, a norm's squares) gives the bits it gives here.
        const auto rounding = traits(backend().kind()).separate_rounding;
        options.options.assign(rounding.begin(), rounding.end());
        ReductionKernel kernel = routine_reduction_kernel(
            in_params(routine, input), std::string(name(out)) + " y", std::string(routine.map),
            std::string(routine.combine), std::string(routine.post), std::string(routine.identity),
            "kiln_" + std::string(routine.name), options, std::string(routine.name));
        found = kernels.emplace(key, std::move(kernel)).first;
    }
    return found->second;
}

ndarray reduce(const ReductionRoutine& routine, const ndarray& a, const ReduceOptions& options,
               const std::optional<Scalar>& parameter) {
    // Built only for an error: this runs at every call.
    const auto context = [&] { return "kiln: " + std::string(routine.name) + ": "; };
    check_kind(routine, a.dtype());
    if (options.ddof != 0 && !routine.parameter.ends_with(" ddof")) {
        throw TypeError(context() + "takes no ddof (only var and std and their nan forms do)");
    }
    auto [accumulator, result] = routine_dtypes(routine, a.dtype());
    if (options.dtype) {
        const Accumulate rule = routine.accumulate;
        if (rule == Accumulate::boolean || rule == Accumulate::count || rule == Accumulate::index) {
            throw TypeError(context() + "takes no dtype: it returns " + std::string(name(result)));
        }
        if (!can_cast(a.dtype(), *options.dtype, Casting::same_kind)) {
            throw TypeError(context() + "the array's dtype " + std::string(name(a.dtype())) +
                            " cannot be cast to the requested dtype " +
                            std::string(name(*options.dtype)) + " under 'same_kind' casting");
        }
        if (rule == Accumulate::real) {
            std::tie(accumulator, result) = routine_dtypes(routine, *options.dtype);
        } else {
            result = *options.dtype;
            accumulator = result == DType::float16 ? DType::float32 : result;
        }
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
    // A pending input fuses into the reduction, also into an out of the result's own dtype.
    if (written == result && a.pending()) {
        if (auto fused = fused_reduction(routine, a, accumulator, result, call, parameter)) {
            return std::move(*fused);
        }
    }
    const ReductionKernel& kernel = routine_kernel(routine, a.dtype(), accumulator, written);
    ndarray reduced = parameter ? kernel({a, *parameter}, call) : kernel({a}, call);
    return options.out ? *options.out : reduced;
}

}  // namespace kiln::detail
