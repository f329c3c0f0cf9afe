// ravel and flip: views where NumPy's are views.
#include "../call_context.hpp"
#include "../kernels/builtin/array_copy.hpp"
#include "../layout.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/manipulation.hpp>

#include <string>
#include <vector>

namespace kiln {

ndarray ravel(const ndarray& a, std::optional<StreamView> stream) {
    if (a.c_contiguous()) {
        return a.reshape({a.size()});
    }
    const StreamView on = detail::call_context("ravel", stream, a.device());
    detail::CrossDeviceOrder order(on);
    order.reach("ravel", "a", a);
    ndarray flat = detail::astype_on(a, a.dtype(), on).reshape({a.size()});
    order.done();
    return flat;
}

ndarray flip(const ndarray& a, const Axis& axis) {
    const std::int64_t ndim = a.ndim();
    std::vector<Index> indices(static_cast<std::size_t>(ndim), Slice{});
    std::vector<bool> flipped(indices.size(), axis.all());
    for (const int given : axis.axes()) {
        const auto position = static_cast<std::size_t>(detail::normalize_axis(given, ndim, "flip"));
        if (flipped[position]) {
            throw ValueError("kiln: flip: repeated axis " + std::to_string(given));
        }
        flipped[position] = true;
    }
    for (std::size_t k = 0; k < indices.size(); ++k) {
        if (flipped[k]) {
            indices[k] = Slice{.step = -1};
        }
    }
    return a.slice(indices);
}

}  // namespace kiln
