#include "../backend.hpp"
#include "array_layout.hpp"
#include "array_memory.hpp"
#include "pending_array.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/ndarray.hpp>

#include <string>
#include <utility>

namespace kiln {

std::shared_ptr<const detail::ArrayGeometry> detail::empty_geometry() {
    // Never destroyed: arrays may outlive static destruction.
    static const auto& empty =
        *new std::shared_ptr<const ArrayGeometry>(std::make_shared<const ArrayGeometry>(
            ArrayGeometry{Shape{0}, Strides{static_cast<std::int64_t>(sizeof(double))}}));
    return empty;
}

ndarray::ndarray() = default;

ndarray::ndarray(std::shared_ptr<void> memory, DType dtype, Shape shape, Strides strides,
                 std::int64_t offset, int device)
    : ndarray(std::move(memory), dtype,
              std::make_shared<const detail::ArrayGeometry>(
                  detail::ArrayGeometry{std::move(shape), std::move(strides)}),
              offset, device) {}

ndarray::ndarray(std::shared_ptr<void> memory, DType dtype,
                 std::shared_ptr<const detail::ArrayGeometry> geometry, std::int64_t offset,
                 int device)
    : memory_(std::move(memory)),
      dtype_(dtype),
      geometry_(std::move(geometry)),
      offset_(offset),
      size_(detail::checked_size(geometry_->shape, kiln::itemsize(dtype))),
      device_(device) {}

ndarray::ndarray(std::shared_ptr<detail::PendingArray> pending, DType dtype, Shape shape,
                 int device)
    : ndarray(std::move(pending), dtype,
              detail::c_contiguous_geometry(std::move(shape), kiln::itemsize(dtype)), device) {}

ndarray::ndarray(std::shared_ptr<detail::PendingArray> pending, DType dtype,
                 std::shared_ptr<const detail::ArrayGeometry> geometry, int device)
    : pending_(std::move(pending)),
      dtype_(dtype),
      geometry_(std::move(geometry)),
      size_(detail::checked_size(geometry_->shape, kiln::itemsize(dtype))),
      device_(device) {}

const std::shared_ptr<void>& ndarray::memory() const {
    const std::shared_ptr<void>& memory = pending_ ? pending_->memory() : memory_;
    detail::run_readers_of(memory.get());
    return memory;
}

void* ndarray::data() const {
    return static_cast<std::byte*>(memory().get()) + offset_;
}

bool ndarray::c_contiguous() const {
    return detail::is_c_contiguous(detail::layout_of(*this), itemsize());
}

bool ndarray::f_contiguous() const {
    return detail::is_f_contiguous(detail::layout_of(*this), itemsize());
}

ndarray ndarray::reshape(Shape shape) const {
    if (auto view = detail::reshape_view(detail::layout_of(*this), shape, itemsize())) {
        return detail::with_layout(*this, std::move(*view));
    }
    return copy().reshape(std::move(shape));
}

ndarray ndarray::transpose(std::span<const std::int64_t> axes) const {
    return detail::with_layout(*this, detail::transpose(detail::layout_of(*this), axes));
}

ndarray ndarray::transpose(std::initializer_list<std::int64_t> axes) const {
    return transpose(std::span<const std::int64_t>(axes.begin(), axes.size()));
}

ndarray ndarray::operator[](std::initializer_list<Index> indices) const {
    return slice(std::span<const Index>(indices.begin(), indices.size()));
}

ndarray ndarray::slice(std::span<const Index> indices) const {
    return detail::with_layout(*this, detail::slice(detail::layout_of(*this), indices));
}

ndarray ndarray::squeeze(const std::optional<std::vector<std::int64_t>>& axes) const {
    return detail::with_layout(*this, detail::squeeze(detail::layout_of(*this), axes));
}

void ndarray::require_one_element_of(DType type, const char* function) const {
    if (type != dtype_) {
        throw TypeError(std::string("kiln: ") + function + ": the array holds " +
                        std::string(name(dtype_)) + ", not " + std::string(name(type)));
    }
    if (size_ != 1) {
        throw ValueError(std::string("kiln: ") + function + ": the array has " +
                         std::to_string(size_) + " elements (shape " + to_string(shape()) +
                         "); only an array of one element converts to a scalar");
    }
}

ndarray broadcast_to(const ndarray& a, const Shape& shape) {
    return detail::with_layout(a, detail::broadcast_to(detail::layout_of(a), shape, a.itemsize()));
}

ndarray expand_dims(const ndarray& a, std::span<const std::int64_t> axes) {
    return detail::with_layout(a, detail::expand_dims(detail::layout_of(a), axes, a.itemsize()));
}

ndarray expand_dims(const ndarray& a, std::initializer_list<std::int64_t> axes) {
    return expand_dims(a, std::span<const std::int64_t>(axes.begin(), axes.size()));
}

}  // namespace kiln
