#include "../backend.hpp"
#include "../kernels/builtin/builtin_kernels.hpp"
#include "../layout.hpp"
#include "array_memory.hpp"

#include <kiln/device.hpp>
#include <kiln/ndarray.hpp>

#include <cmath>
#include <string>

namespace kiln {

namespace detail {

ndarray empty_on(const Shape& shape, DType dtype, StreamView stream) {
    auto layout = c_contiguous(shape, itemsize(dtype), "empty");
    const auto bytes = static_cast<std::size_t>(layout.size()) * itemsize(dtype);
    return {allocate_array_memory(bytes, stream),
            dtype,
            std::move(layout.shape),
            std::move(layout.strides),
            0,
            stream.device()};
}

}  // namespace detail

ndarray empty(const Shape& shape, DType dtype) {
    return detail::empty_on(shape, dtype, current_stream());
}

ndarray zeros(const Shape& shape, DType dtype) {
    const StreamView stream = current_stream();
    ndarray a = detail::empty_on(shape, dtype, stream);
    if (a.nbytes() > 0) {
        detail::backend().fill_bytes_async(a.data(), 0, a.nbytes(), stream);
    }
    return a;
}

ndarray ones(const Shape& shape, DType dtype) {
    return full(shape, 1, dtype);
}

ndarray full(const Shape& shape, const Scalar& value, std::optional<DType> dtype) {
    ndarray a = empty(shape, dtype.value_or(value.dtype()));
    a.fill(value);
    return a;
}

ndarray empty_like(const ndarray& a, std::optional<DType> dtype) {
    return empty(a.shape(), dtype.value_or(a.dtype()));
}

ndarray zeros_like(const ndarray& a, std::optional<DType> dtype) {
    return zeros(a.shape(), dtype.value_or(a.dtype()));
}

ndarray ones_like(const ndarray& a, std::optional<DType> dtype) {
    return ones(a.shape(), dtype.value_or(a.dtype()));
}

ndarray full_like(const ndarray& a, const Scalar& value, std::optional<DType> dtype) {
    return full(a.shape(), value, dtype.value_or(a.dtype()));
}

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

ndarray from_pointer(void* data, const Shape& shape, DType dtype, std::optional<Strides> strides,
                     std::function<void(void*)> deleter, std::optional<int> device) {
    auto layout = detail::c_contiguous(shape, itemsize(dtype), "from_pointer");
    if (strides) {
        if (strides->size() != shape.size()) {
            throw ShapeError("kiln: from_pointer: " + std::to_string(strides->size()) +
                             " strides given for a shape of " + std::to_string(shape.size()) +
                             " dimensions");
        }
        layout.strides = *strides;
    }
    std::shared_ptr<void> memory = deleter
                                       ? std::shared_ptr<void>(data, std::move(deleter))
                                       : std::shared_ptr<void>(data, [](void* /*not owned*/) {});
    const int id = Device(device.value_or(detail::current_device())).id();
    return {std::move(memory), dtype, std::move(layout.shape), std::move(layout.strides), 0, id};
}

}  // namespace kiln
