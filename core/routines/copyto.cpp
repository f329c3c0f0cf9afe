// numpy.copyto: src broadcast to dst's shape and cast to its dtype, checked as NumPy checks it;
// `where` selects through the where ufunc, reading dst where the mask is false.
#include "../array/array_memory.hpp"
#include "../call_context.hpp"
#include "../kernels/builtin/builtin_kernels.hpp"
#include "copy_into.hpp"
#include "promotion.hpp"

#include <kiln/error.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/ufuncs.hpp>

#include <array>
#include <string>
#include <vector>

namespace kiln {

namespace {

// `array` seen in `shape`: leading extent-1 axes beyond shape's dimensions dropped, as NumPy's
// copyto drops them, then broadcast. Throws ShapeError naming `what` when it does not fit.
ndarray fitted(const char* what, const ndarray& array, const Shape& shape) {
    ndarray view = array;
    while (view.shape().size() > shape.size() && view.shape().front() == 1) {
        view = view.squeeze(std::vector<std::int64_t>{0});
    }
    bool fits = view.shape().size() <= shape.size();
    const std::size_t lead = fits ? shape.size() - view.shape().size() : 0;
    for (std::size_t k = 0; fits && k < view.shape().size(); ++k) {
        fits = view.shape()[k] == 1 || view.shape()[k] == shape[lead + k];
    }
    if (!fits) {
        throw ShapeError("kiln: copyto: " + std::string(what) + " has shape " +
                         to_string(array.shape()) + ", which does not broadcast to dst's shape " +
                         to_string(shape));
    }
    return broadcast_to(view, shape);
}

// The dtype a scalar takes on its way into `dst` (NEP 50's weak scalar): dst's own when its kind
// is not higher, else NumPy's default dtype of its kind.
DType scalar_dtype(const Scalar& value, DType dst) {
    const std::array strong{dst};
    const std::array weak{value.dtype()};
    return detail::promote_weak(strong, weak);
}

}  // namespace

void copyto(const ndarray& dst, const Argument& src, const CopytoOptions& options) {
    const StreamView stream = detail::call_context("copyto", options.stream, dst.device());
    detail::CrossDeviceOrder order(stream);
    order.reach("copyto", "dst", dst);
    std::optional<ndarray> mask;
    if (options.where) {
        if (options.where->dtype() != DType::bool_) {
            throw TypeError("kiln: copyto: where must be a bool array, not " +
                            std::string(name(options.where->dtype())));
        }
        order.reach("copyto", "where", *options.where);
        mask = fitted("where", *options.where, dst.shape());
    }
    // With a mask, src goes first into an array of dst's shape and dtype, which where() selects.
    ndarray values = dst;
    if (const auto* scalar = std::get_if<Scalar>(&src)) {
        detail::require_cast("copyto", "the scalar src", scalar_dtype(*scalar, dst.dtype()),
                             dst.dtype(), options.casting);
        if (mask) {
            values = detail::empty_on(dst.shape(), dst.dtype(), stream);
        }
        detail::fill_elements(values.shape(), {values.data(), values.dtype(), values.strides()},
                              *scalar, stream);
    } else {
        const auto& array = std::get<ndarray>(src);
        detail::require_cast("copyto", "src", array.dtype(), dst.dtype(), options.casting);
        if (array.device() != stream.device() && !mask) {
            detail::copy_across_devices(dst, fitted("src", array, dst.shape()), stream);
            order.done();
            return;
        }
        // From another device: first brought here whole, then broadcast and cast as usual.
        const ndarray here =
            array.device() == stream.device() ? array : detail::copy_from_device(array, stream);
        const ndarray source = fitted("src", here, dst.shape());
        if (mask) {
            values = detail::empty_on(dst.shape(), dst.dtype(), stream);
        }
        detail::copy_into(values, source, stream);
    }
    if (mask) {
        UfuncOptions select;
        select.out = dst;
        select.stream = stream;
        (void)where(*mask, values, dst, select);
    }
    order.done();
}

}  // namespace kiln
