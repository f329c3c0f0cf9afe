#include "../backend.hpp"
#include "../layout.hpp"
#include "array_memory.hpp"

#include <kiln/device.hpp>
#include <kiln/ndarray.hpp>

#include <algorithm>
#include <string>

namespace kiln {

namespace detail {

std::shared_ptr<const ArrayGeometry> c_contiguous_geometry(Shape shape, std::size_t itemsize,
                                                           std::string_view caller) {
    Strides strides = c_contiguous_strides(shape, itemsize, caller);  // checks the shape
    return std::make_shared<const ArrayGeometry>(
        ArrayGeometry{std::move(shape), std::move(strides)});
}

bool has_c_contiguous_strides(const Shape& shape, const Strides& strides,
                              std::size_t itemsize) noexcept {
    if (strides.size() != shape.size()) {
        return false;
    }
    auto stride = static_cast<std::int64_t>(itemsize);
    for (std::size_t axis = shape.size(); axis-- > 0;) {
        if (strides[axis] != stride) {
            return false;
        }
        stride *= std::max<std::int64_t>(shape[axis], 1);
    }
    return true;
}

ndarray empty_on(const Shape& shape, DType dtype, StreamView stream) {
    return empty_on(c_contiguous_geometry(shape, itemsize(dtype), "empty"), dtype, stream);
}

ndarray empty_on(std::shared_ptr<const ArrayGeometry> geometry, DType dtype, StreamView stream) {
    const std::size_t item = itemsize(dtype);
    const auto bytes = static_cast<std::size_t>(checked_size(geometry->shape, item)) * item;
    return {allocate_array_memory(bytes, stream), dtype, std::move(geometry), 0, stream.device()};
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
