// arange and linspace: ranges of values, written by a built-in kernel.
#include "../array/array_memory.hpp"
#include "../kernels/builtin/builtin_kernels.hpp"

#include <kiln/error.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace kiln {

namespace {

// Integer ranges are generated through doubles, exact up to 2^53.
void require_exact(double value, const char* function) {
    if (std::abs(value) > 9007199254740992.0) {
        throw Error(std::string("kiln: ") + function + ": " + std::to_string(value) +
                    " is beyond 2^53, where generated values would not be exact");
    }
}

}  // namespace

namespace detail {

ndarray arange_integers(std::int64_t start, std::int64_t stop, std::int64_t step, DType dtype) {
    if (step == 0) {
        throw Error("kiln: arange: step must not be 0");
    }
    require_exact(static_cast<double>(start), "arange");
    require_exact(static_cast<double>(stop), "arange");
    // In 128 bits: stop - start and the rounding term overflow int64 for extreme arguments.
    // (__extension__: GCC's and Clang's 128-bit integer, which ISO C++ does not name.)
    __extension__ using wide = __int128;
    const wide span = static_cast<wide>(stop) - start;
    const wide rounded = (span + step + (step > 0 ? -1 : 1)) / step;
    const auto count = static_cast<std::int64_t>(std::max<wide>(0, rounded));
    const StreamView stream = current_stream();
    ndarray a = detail::empty_on({count}, dtype, stream);
    detail::arange_elements(a.data(), dtype, count, static_cast<double>(start),
                            static_cast<double>(step), stream);
    return a;
}

ndarray arange_floats(double start, double stop, double step, DType dtype) {
    if (step == 0.0 || !std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step)) {
        throw Error("kiln: arange: start, stop and step must be finite and step non-zero (got " +
                    std::to_string(start) + ", " + std::to_string(stop) + ", " +
                    std::to_string(step) + ")");
    }
    const double exact = std::max(0.0, std::ceil((stop - start) / step));
    if (exact >= 9.2e18) {
        throw ShapeError("kiln: arange: " + std::to_string(exact) + " elements is too many");
    }
    const auto count = static_cast<std::int64_t>(exact);
    const StreamView stream = current_stream();
    ndarray a = detail::empty_on({count}, dtype, stream);
    detail::arange_elements(a.data(), dtype, count, start, step, stream);
    return a;
}

}  // namespace detail

ndarray linspace(double start, double stop, std::int64_t num, bool endpoint, DType dtype) {
    if (num < 0) {
        throw Error("kiln: linspace: num must be non-negative (got " + std::to_string(num) + ")");
    }
    const StreamView stream = current_stream();
    ndarray a = detail::empty_on({num}, dtype, stream);
    detail::linspace_elements(a.data(), dtype, num, start, stop, endpoint, stream);
    return a;
}

}  // namespace kiln
