#include "collapse.hpp"

namespace kiln::detail {

Collapsed collapse_dims(const Shape& shape, const std::vector<Strides>& strides) {
    Collapsed out;
    out.strides.resize(strides.size());
    for (std::size_t axis = 0; axis < shape.size(); ++axis) {
        if (shape[axis] == 1) {
            continue;
        }
        if (shape[axis] == 0) {
            return {{0}, std::vector<Strides>(strides.size(), Strides{0})};
        }
        bool mergeable = !out.shape.empty();
        for (std::size_t op = 0; mergeable && op < strides.size(); ++op) {
            mergeable = out.strides[op].back() == strides[op][axis] * shape[axis];
        }
        if (mergeable) {
            out.shape.back() *= shape[axis];
            for (std::size_t op = 0; op < strides.size(); ++op) {
                out.strides[op].back() = strides[op][axis];
            }
        } else {
            out.shape.push_back(shape[axis]);
            for (std::size_t op = 0; op < strides.size(); ++op) {
                out.strides[op].push_back(strides[op][axis]);
            }
        }
    }
    return out;
}

}  // namespace kiln::detail
