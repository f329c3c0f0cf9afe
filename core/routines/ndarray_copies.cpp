// The ndarray methods that run kernels (copy, astype, fill, to_device): they sit here, above the
// kernel layer, so that array/ (the type itself) never reaches up into it.
#include "../call_context.hpp"
#include "../kernels/builtin/array_copy.hpp"
#include "../kernels/builtin/builtin_kernels.hpp"
#include "copy_into.hpp"
#include "deferred_calls.hpp"

#include <kiln/device.hpp>
#include <kiln/ndarray.hpp>

namespace kiln {

ndarray ndarray::copy() const {
    return astype(dtype_, true);
}

ndarray ndarray::to_device(const Device& device) const {
    if (device.id() == device_) {
        return *this;
    }
    return detail::copy_from_device(*this, detail::current_stream_of(device.id()));
}

ndarray ndarray::astype(DType dtype, bool copy) const {
    if (dtype == dtype_ && !copy) {
        return *this;
    }
    if (auto deferred = detail::defer_astype(*this, dtype)) {
        return std::move(*deferred);
    }
    return detail::astype_on(*this, dtype, detail::current_stream_of(device_));
}

void ndarray::fill(const Scalar& value) {
    detail::fill_elements(shape(), {data(), dtype_, strides()}, value,
                          detail::current_stream_of(device_));
}

}  // namespace kiln
