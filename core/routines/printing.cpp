// Printing arrays: the shown elements (the corners of a summarized array) to the host, widened to
// the host types of array_text, then NumPy's repr or str from there.
#include "array_text.hpp"

#include <kiln/device.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/printing.hpp>

#include <complex>
#include <ostream>

namespace kiln {

namespace {

// The corners a summarized array shows, joined on the device: the first and last
// print_edgeitems items along each axis longer than twice that.
ndarray shown_part(const ndarray& a) {
    ndarray part = a;
    if (!detail::summarized(a.shape())) {
        return part;
    }
    for (std::size_t axis = 0; axis < a.shape().size(); ++axis) {
        if (a.shape()[axis] <= 2 * detail::print_edgeitems) {
            continue;
        }
        std::vector<Index> leading(axis + 1, Slice{});
        std::vector<Index> trailing(axis + 1, Slice{});
        leading.back() = Slice{.stop = detail::print_edgeitems};
        trailing.back() = Slice{.start = -detail::print_edgeitems};
        part = concatenate({part.slice(leading), part.slice(trailing)},
                           static_cast<std::int64_t>(axis));
    }
    return part;
}

template <class Host, class T>
std::vector<Host> widened(const ndarray& a) {
    const std::vector<T> values = a.get<T>();
    return std::vector<Host>(values.begin(), values.end());
}

detail::HostValues host_values(const ndarray& part) {
    switch (part.dtype()) {
        case DType::bool_:
            return part.get<bool>();
        case DType::int8:
            return widened<std::int64_t, std::int8_t>(part);
        case DType::int16:
            return widened<std::int64_t, std::int16_t>(part);
        case DType::int32:
            return widened<std::int64_t, std::int32_t>(part);
        case DType::int64:
            return part.get<std::int64_t>();
        case DType::uint8:
            return widened<std::uint64_t, std::uint8_t>(part);
        case DType::uint16:
            return widened<std::uint64_t, std::uint16_t>(part);
        case DType::uint32:
            return widened<std::uint64_t, std::uint32_t>(part);
        case DType::uint64:
            return part.get<std::uint64_t>();
        case DType::float16:
            return widened<double, half>(part);
        case DType::float32:
            return widened<double, float>(part);
        case DType::float64:
            return part.get<double>();
        case DType::complex64:
            return widened<std::complex<double>, std::complex<float>>(part);
        case DType::complex128:
            return part.get<std::complex<double>>();
    }
    detail::throw_invalid_dtype("array_repr", part.dtype());
}

detail::HostArray host_array(const ndarray& a) {
    return {a.dtype(), a.shape(), host_values(shown_part(a))};
}

}  // namespace

std::string array_repr(const ndarray& a) {
    return detail::array_repr(host_array(a));
}

std::string array_str(const ndarray& a) {
    return detail::array_str(host_array(a));
}

std::string to_string(const ndarray& a) {
    return array_repr(a);
}

std::ostream& operator<<(std::ostream& out, const ndarray& a) {
    return out << array_str(a);
}

}  // namespace kiln
