#include "promotion.hpp"

#include <boost/container/small_vector.hpp>
#include <kiln/error.hpp>
#include <kiln/ufuncs.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <variant>

namespace kiln {

namespace detail {

namespace {

// bool < integer < floating < complex.
int category(DType dtype) {
    switch (kind(dtype)) {
        case 'b':
            return 0;
        case 'i':
        case 'u':
            return 1;
        case 'f':
            return 2;
        default:
            return 3;
    }
}

// NumPy's type numbers order the dtypes bool, int8, uint8, ..., uint64, float32, float64,
// complex64, complex128, float16 (float16 was added last).
int type_number(DType dtype) {
    static constexpr std::array order{
        DType::bool_,   DType::int8,      DType::uint8,      DType::int16,  DType::uint16,
        DType::int32,   DType::uint32,    DType::int64,      DType::uint64, DType::float32,
        DType::float64, DType::complex64, DType::complex128, DType::float16};
    return static_cast<int>(std::ranges::find(order, dtype) - order.begin());
}

std::optional<DType> promoted(std::span<const DType> dtypes) {
    return dtypes.empty() ? std::nullopt : std::optional<DType>(promote_dtypes(dtypes));
}

}  // namespace

// PyArray_PromoteDTypeSequence (numpy/_core/src/multiarray/common_dtype.c) leads with the dtype of
// the highest type number (NumPy's builtin common_dtype defers to it) and promotes every dtype
// with that one, so result_type(int8, uint8, float16) is float16 where a pairwise fold gives
// float32 (int8, uint8 -> int16, then int16, float16 -> float32).
DType promote_dtypes(std::span<const DType> dtypes) {
    if (dtypes.empty()) {
        throw TypeError("kiln: result_type: expected at least one dtype");
    }
    const DType main = *std::ranges::max_element(
        dtypes, [](DType a, DType b) { return type_number(a) < type_number(b); });
    DType result = main;
    for (const DType dtype : dtypes) {
        result = promote_types(result, promote_types(main, dtype));
    }
    return result;
}

DType promote_weak(std::span<const DType> strong, std::span<const DType> weak) {
    const std::optional<DType> arrays = promoted(strong);
    if (!arrays) {
        if (weak.empty()) {
            throw TypeError("kiln: result_type: expected at least one array or scalar");
        }
        return *promoted(weak);
    }
    int highest = -1;
    for (const DType dtype : weak) {
        highest = std::max(highest, category(dtype));
    }
    if (highest <= category(*arrays)) {
        return *arrays;
    }
    switch (highest) {
        case 1:
            return DType::int64;
        case 2:
            return DType::float64;
        default:
            return *arrays == DType::float16 || *arrays == DType::float32 ? DType::complex64
                                                                          : DType::complex128;
    }
}

DType real_dtype(DType dtype) {
    switch (dtype) {
        case DType::complex64:
            return DType::float32;
        case DType::complex128:
            return DType::float64;
        default:
            return dtype;
    }
}

}  // namespace detail

DType result_type(std::span<const Argument> args) {
    // Arrays of one dtype, the usual ufunc call, promote to it (Promotion.OneDtypeIsItsOwnResult).
    if (const auto* first = args.empty() ? nullptr : std::get_if<ndarray>(&args.front())) {
        if (std::all_of(args.begin(), args.end(), [first](const Argument& arg) {
                const auto* array = std::get_if<ndarray>(&arg);
                return array != nullptr && array->dtype() == first->dtype();
            })) {
            return first->dtype();
        }
    }
    // Inline for the usual few arguments: every ufunc call asks this.
    boost::container::small_vector<DType, 4> strong;
    boost::container::small_vector<DType, 4> weak;
    for (const Argument& arg : args) {
        if (const auto* array = std::get_if<ndarray>(&arg)) {
            strong.push_back(array->dtype());
        } else {
            weak.push_back(std::get<Scalar>(arg).dtype());
        }
    }
    return detail::promote_weak(std::span(strong.data(), strong.size()),
                                std::span(weak.data(), weak.size()));
}

}  // namespace kiln
