/// @file
/// kiln's GPU array (CuPy's cupy.ndarray): device memory shared between views, a dtype, a shape and
/// byte strides. Creation functions use the current device, its allocator (get_allocator()) and the
/// current stream.
#pragma once

#include <kiln/device.hpp>
#include <kiln/dtype.hpp>
#include <kiln/error.hpp>
#include <kiln/scalar.hpp>
#include <kiln/shape.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace kiln {

namespace detail {
class PendingArray;

/// Internal: an array's shape and strides. They never change once the array is made, so copies
/// of the array share them, and copying an array allocates nothing.
struct ArrayGeometry {
    Shape shape;
    Strides strides;
};
/// Internal: the geometry of a default-constructed array, shape (0,) and strides (8,).
[[nodiscard]] std::shared_ptr<const ArrayGeometry> empty_geometry();
}  // namespace detail

/// An n-dimensional array in one device's memory (cupy.ndarray). Copies are handles that share the
/// memory; views (reshape, transpose, indexing) share it too. Creation functions use the current
/// device, its allocator (get_allocator()) and the current stream.
class ndarray {
public:
    /// An empty float64 array of shape (0,), holding no memory.
    ndarray();
    /// A handle to the same memory, shape and strides.
    ndarray(const ndarray&) = default;
    /// Makes this a handle to `other`'s memory, shape and strides.
    ndarray& operator=(const ndarray&) = default;
    /// Takes `other`'s memory; the moved-from array keeps its shape and strides, and holds no
    /// memory.
    ndarray(ndarray&& other) noexcept
        : memory_(std::move(other.memory_)),
          pending_(std::move(other.pending_)),
          dtype_(other.dtype_),
          // Copied: the moved-from array keeps it, so that it never holds none.
          geometry_(other.geometry_),  // NOLINT(performance-move-constructor-init,cert-oop11-cpp)
          offset_(other.offset_),
          size_(other.size_),
          device_(other.device_) {}
    /// Takes `other`'s memory, shape and strides, as the move constructor does.
    ndarray& operator=(ndarray&& other) noexcept {
        memory_ = std::move(other.memory_);
        pending_ = std::move(other.pending_);
        dtype_ = other.dtype_;
        geometry_ = other.geometry_;
        offset_ = other.offset_;
        size_ = other.size_;
        device_ = other.device_;
        return *this;
    }
    ~ndarray() = default;

    /// The length of each axis.
    [[nodiscard]] const Shape& shape() const noexcept { return geometry_->shape; }
    /// Bytes to step along each axis, as NumPy's and CuPy's strides.
    [[nodiscard]] const Strides& strides() const noexcept { return geometry_->strides; }
    /// The element type.
    [[nodiscard]] DType dtype() const noexcept { return dtype_; }
    /// The number of axes.
    [[nodiscard]] std::int64_t ndim() const noexcept {
        return static_cast<std::int64_t>(geometry_->shape.size());
    }
    /// The number of elements (the product of the shape; 1 for a 0-d array).
    [[nodiscard]] std::int64_t size() const noexcept { return size_; }
    /// The bytes of one element.
    [[nodiscard]] std::size_t itemsize() const noexcept { return kiln::itemsize(dtype_); }
    /// size() * itemsize(): the bytes the elements take, not the allocation.
    [[nodiscard]] std::size_t nbytes() const noexcept {
        return static_cast<std::size_t>(size_) * itemsize();
    }
    /// The address of the first element (CuPy's a.data.ptr). An array from a deferred
    /// elementwise expression (set_lazy_fusion) is computed first.
    [[nodiscard]] void* data() const;
    /// The index of the device that holds the memory.
    [[nodiscard]] int device() const noexcept { return device_; }
    /// Whether the elements lie in C (row-major) order without gaps.
    [[nodiscard]] bool c_contiguous() const;
    /// Whether the elements lie in Fortran (column-major) order without gaps.
    [[nodiscard]] bool f_contiguous() const;

    /// Views sharing this array's memory. reshape copies only when no view exists.
    [[nodiscard]] ndarray reshape(Shape shape) const;
    /// A view with the axes permuted: reversed when `axes` is empty, else axis i of the result is
    /// axis axes[i] of this array (numpy.transpose).
    [[nodiscard]] ndarray transpose(std::span<const std::int64_t> axes = {}) const;
    /// transpose with the axes in braces: a.transpose({1, 0}).
    [[nodiscard]] ndarray transpose(std::initializer_list<std::int64_t> axes) const;
    /// Basic indexing (a[1:5:2, 3, None, ...] is a[{Slice{1, 5, 2}, 3, newaxis, ellipsis}]).
    [[nodiscard]] ndarray operator[](std::initializer_list<Index> indices) const;
    /// Basic indexing with the indices in a span: the same view as operator[].
    [[nodiscard]] ndarray slice(std::span<const Index> indices) const;
    /// A view without the given length-1 axes, or without every length-1 axis when none is given
    /// (ValueError for an axis whose length is not 1).
    [[nodiscard]] ndarray squeeze(
        const std::optional<std::vector<std::int64_t>>& axes = std::nullopt) const;

    /// A C-contiguous copy, on the current stream.
    [[nodiscard]] ndarray copy() const;
    /// A copy on `device`, on its current stream, or this array itself when it is there already
    /// (the array API's to_device). Peer access, when enabled, makes the copy device to device.
    [[nodiscard]] ndarray to_device(const Device& device) const;
    /// This array converted to `dtype` (a new array, or this one when it already has the dtype and
    /// copy is false).
    [[nodiscard]] ndarray astype(DType dtype, bool copy = true) const;
    /// Sets every element; throws TypeError when the value does not fit the dtype.
    void fill(const Scalar& value);

    /// To the host in C order. Synchronous, through pinned staging (at most 64 MiB pinned per
    /// call, whatever the size); or asynchronous on `stream`, straight into `out`, which must stay
    /// valid until the stream reaches the copy (use pinned memory for real overlap). T must be the
    /// array's element type (TypeError otherwise), and `out` must hold size() elements.
    template <class T>
    [[nodiscard]] std::vector<T> get() const {
        const auto count = static_cast<std::size_t>(size_);
        if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> has no contiguous storage
            // NOLINTNEXTLINE(*-avoid-c-arrays): a plain bool buffer stands in for the vector
            const auto buffer = std::make_unique<bool[]>(count);
            get(std::span<bool>(buffer.get(), count));
            return std::vector<bool>(buffer.get(), buffer.get() + count);
        } else {
            std::vector<T> out(count);
            get(std::span<T>(out));
            return out;
        }
    }
    /// Copies to `out` synchronously (see get()).
    template <class T>
    void get(std::span<T> out) const {
        to_host(out.data(), out.size(), dtype_of<T>, std::nullopt);
    }
    /// Copies to `out` asynchronously on `stream` (see get()).
    template <class T>
    void get(std::span<T> out, StreamView stream) const {
        to_host(out.data(), out.size(), dtype_of<T>, stream);
    }
    /// The one element of a size-1 array, of any shape (CuPy's item()), copied synchronously. T
    /// must be the array's element type, as for get(); ValueError naming item for another size.
    template <class T>
    [[nodiscard]] T item() const {
        require_one_element_of(dtype_of<T>, "item");
        T value{};
        get(std::span<T>(&value, 1));
        return value;
    }

    /// From the host in C order, through pinned staging (a ring of at most 64 MiB per call,
    /// whatever the size). Synchronous; or asynchronous on `stream`, in which case `values` may be
    /// reused as soon as the call returns. An upload larger than the ring refills it as the stream
    /// drains it, so it returns only once the stream has moved all but its last 64 MiB: after
    /// the work queued before it on `stream`.
    template <class T>
    void set(std::span<const T> values) {
        from_host(values.data(), values.size(), dtype_of<T>, std::nullopt);
    }
    /// Copies `values` in asynchronously on `stream` (see the synchronous set).
    template <class T>
    void set(std::span<const T> values, StreamView stream) {
        from_host(values.data(), values.size(), dtype_of<T>, stream);
    }

    /// Internal: the memory and the view of it.
    ndarray(std::shared_ptr<void> memory, DType dtype, Shape shape, Strides strides,
            std::int64_t offset, int device);
    /// Internal: the memory and a geometry that other arrays may share.
    ndarray(std::shared_ptr<void> memory, DType dtype,
            std::shared_ptr<const detail::ArrayGeometry> geometry, std::int64_t offset, int device);
    /// Internal: a C-contiguous array whose elements a deferred expression computes on first use.
    ndarray(std::shared_ptr<detail::PendingArray> pending, DType dtype, Shape shape, int device);
    /// Internal: the same, with a C-contiguous geometry that other arrays may share.
    ndarray(std::shared_ptr<detail::PendingArray> pending, DType dtype,
            std::shared_ptr<const detail::ArrayGeometry> geometry, int device);
    /// Internal: the shape and strides, to share with another array of the same geometry.
    [[nodiscard]] const std::shared_ptr<const detail::ArrayGeometry>& shared_geometry()
        const noexcept {
        return geometry_;
    }
    /// Internal: the allocation this view shares. Every access to the elements goes through it:
    /// it computes a deferred array, and first runs the deferred expressions reading the memory.
    [[nodiscard]] const std::shared_ptr<void>& memory() const;
    /// Internal: what identifies the elements' memory for lazy fusion's bookkeeping (the
    /// allocation, or the deferred expression), computing nothing.
    [[nodiscard]] const void* allocation() const noexcept {
        return pending_ ? static_cast<const void*>(pending_.get()) : memory_.get();
    }
    /// Internal: the deferred expression behind this array, or null.
    [[nodiscard]] const std::shared_ptr<detail::PendingArray>& pending() const noexcept {
        return pending_;
    }
    /// Internal: the bytes from the start of memory() to the first element.
    [[nodiscard]] std::int64_t offset() const noexcept { return offset_; }

private:
    // Refuses, naming `function`, an array of more or fewer than one element or not of `type`.
    void require_one_element_of(DType type, const char* function) const;
    void to_host(void* out, std::size_t count, DType type, std::optional<StreamView> stream) const;
    void from_host(const void* values, std::size_t count, DType type,
                   std::optional<StreamView> stream);

    std::shared_ptr<void> memory_;
    std::shared_ptr<detail::PendingArray> pending_;
    DType dtype_ = DType::float64;
    std::shared_ptr<const detail::ArrayGeometry> geometry_ =
        detail::empty_geometry();  // never null
    std::int64_t offset_ = 0;
    std::int64_t size_ = 0;
    int device_ = 0;
};

// Creation (CuPy's names), on the current device and stream.
/// An array of `shape` whose elements are not initialized (cupy.empty).
[[nodiscard]] ndarray empty(const Shape& shape, DType dtype = float64);
/// An array of `shape` filled with 0 (cupy.zeros).
[[nodiscard]] ndarray zeros(const Shape& shape, DType dtype = float64);
/// An array of `shape` filled with 1 (cupy.ones).
[[nodiscard]] ndarray ones(const Shape& shape, DType dtype = float64);
/// dtype defaults to the value's own (full({3}, 7) is int32, full({3}, 7.0) float64).
/// An array of `shape` filled with `value` (cupy.full); the dtype defaults to the value's own
/// (full({3}, 7) is int32, full({3}, 7.0) float64).
[[nodiscard]] ndarray full(const Shape& shape, const Scalar& value,
                           std::optional<DType> dtype = std::nullopt);
/// An uninitialized array of a's shape, with a's dtype unless given.
[[nodiscard]] ndarray empty_like(const ndarray& a, std::optional<DType> dtype = std::nullopt);
/// zeros of a's shape, with a's dtype unless given.
[[nodiscard]] ndarray zeros_like(const ndarray& a, std::optional<DType> dtype = std::nullopt);
/// ones of a's shape, with a's dtype unless given.
[[nodiscard]] ndarray ones_like(const ndarray& a, std::optional<DType> dtype = std::nullopt);
/// An array of a's shape filled with `value`, with a's dtype unless given.
[[nodiscard]] ndarray full_like(const ndarray& a, const Scalar& value,
                                std::optional<DType> dtype = std::nullopt);
namespace detail {

[[nodiscard]] ndarray arange_integers(std::int64_t start, std::int64_t stop, std::int64_t step,
                                      DType dtype);
[[nodiscard]] ndarray arange_floats(double start, double stop, double step, DType dtype);

// arange's arguments: any C++ integer or floating-point type but bool.
template <class T>
concept arange_argument = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

template <class T>
[[nodiscard]] std::int64_t arange_integer(T value) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(std::int64_t)) {
        if (value > static_cast<T>(INT64_MAX)) {
            throw Error("kiln: arange: " + std::to_string(value) + " does not fit in int64");
        }
    }
    return static_cast<std::int64_t>(value);
}

}  // namespace detail

/// Values start, start + step, ... below stop (above it for a negative step). As in NumPy, integer
/// arguments of any type give int64, and any floating-point argument float64, unless dtype says
/// otherwise: arange(5), arange(2, 22), arange(0, 10, 2u) are int64; arange(0, 1, 0.25) float64.
template <detail::arange_argument Start, detail::arange_argument Stop,
          detail::arange_argument Step = int>
[[nodiscard]] ndarray arange(Start start, Stop stop, Step step = 1,
                             std::optional<DType> dtype = std::nullopt) {
    if constexpr (std::is_integral_v<Start> && std::is_integral_v<Stop> &&
                  std::is_integral_v<Step>) {
        return detail::arange_integers(detail::arange_integer(start), detail::arange_integer(stop),
                                       detail::arange_integer(step), dtype.value_or(int64));
    } else {
        return detail::arange_floats(static_cast<double>(start), static_cast<double>(stop),
                                     static_cast<double>(step), dtype.value_or(float64));
    }
}
/// arange(0, stop): 0, 1, ... below stop.
template <detail::arange_argument Stop>
[[nodiscard]] ndarray arange(Stop stop) {
    return arange(Stop{0}, stop);
}
/// `num` evenly spaced values from start to stop, stop included unless `endpoint` is false
/// (numpy.linspace).
[[nodiscard]] ndarray linspace(double start, double stop, std::int64_t num = 50,
                               bool endpoint = true, DType dtype = float64);

/// A new array holding `values` (shape: (values.size(),) unless given), copied synchronously, or
/// asynchronously on `stream` through pinned staging.
template <class T>
[[nodiscard]] ndarray array(std::span<const T> values,
                            const std::optional<Shape>& shape = std::nullopt) {
    ndarray a = empty(shape.value_or(Shape{static_cast<std::int64_t>(values.size())}), dtype_of<T>);
    a.set(values);
    return a;
}
/// On the stream's device (the current one where the view names none).
template <class T>
[[nodiscard]] ndarray array(std::span<const T> values, const Shape& shape, StreamView stream) {
    const DeviceGuard on{stream.device() == StreamView::any_device ? Device::current()
                                                                   : Device(stream.device())};
    ndarray a = empty(shape, dtype_of<T>);
    a.set(values, stream);
    return a;
}
/// A new array holding `values`, copied synchronously (shape: (values.size(),) unless given).
template <class T>
[[nodiscard]] ndarray array(const std::vector<T>& values,
                            const std::optional<Shape>& shape = std::nullopt) {
    if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> has no contiguous storage
        // NOLINTNEXTLINE(*-avoid-c-arrays): a plain bool buffer stands in for the vector
        const auto buffer = std::make_unique<bool[]>(values.size());
        std::copy(values.begin(), values.end(), buffer.get());
        return array(std::span<const bool>(buffer.get(), values.size()), shape);
    } else {
        return array(std::span<const T>(values), shape);
    }
}

// Views of existing arrays.
/// A view of `a` broadcast to `shape` (numpy.broadcast_to): a repeated axis has stride 0, so its
/// elements are shared; ShapeError when the shapes do not broadcast.
[[nodiscard]] ndarray broadcast_to(const ndarray& a, const Shape& shape);
/// A view with length-1 axes inserted at `axes` of the result (numpy.expand_dims).
[[nodiscard]] ndarray expand_dims(const ndarray& a, std::span<const std::int64_t> axes);
/// expand_dims with the axes in braces: expand_dims(a, {0}).
[[nodiscard]] ndarray expand_dims(const ndarray& a, std::initializer_list<std::int64_t> axes);

/// An array over device memory kiln did not allocate. Without a deleter the caller keeps the
/// memory alive; with one, kiln calls it when the last view is gone. strides default to
/// C-contiguous; device defaults to the current device.
[[nodiscard]] ndarray from_pointer(void* data, const Shape& shape, DType dtype,
                                   std::optional<Strides> strides = std::nullopt,
                                   std::function<void(void*)> deleter = {},
                                   std::optional<int> device = std::nullopt);

}  // namespace kiln
