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

ndarray::ndarray() = default;

ndarray::ndarray(std::shared_ptr<void> memory, DType dtype, Shape shape, Strides strides,
                 std::int64_t offset, int device)
    : memory_(std::move(memory)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset),
      size_(detail::checked_size(shape_, kiln::itemsize(dtype))),
      device_(device) {}

ndarray::ndarray(std::shared_ptr<detail::PendingArray> pending, DType dtype, Shape shape,
                 int device)
    : pending_(std::move(pending)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(detail::c_contiguous_strides(shape_, kiln::itemsize(dtype))),
      size_(detail::checked_size(shape_, kiln::itemsize(dtype))),
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
                         std::to_string(size_) + " elements (shape " + to_string(shape_) +
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
