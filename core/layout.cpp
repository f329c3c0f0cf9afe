#include "layout.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

namespace kiln::detail {

namespace {

// "kiln: reshape: " for a named caller, "kiln: " for none.
std::string context(std::string_view caller) {
    return caller.empty() ? std::string("kiln: ") : "kiln: " + std::string(caller) + ": ";
}

std::int64_t checked_multiply(std::int64_t a, std::int64_t b, std::string_view caller) {
    std::int64_t result = 0;
    if (__builtin_mul_overflow(a, b, &result)) {
        throw Error(context(caller) + "byte offsets overflow int64");
    }
    return result;
}

std::int64_t checked_add(std::int64_t a, std::int64_t b, std::string_view caller) {
    std::int64_t result = 0;
    if (__builtin_add_overflow(a, b, &result)) {
        throw Error(context(caller) + "byte offsets overflow int64");
    }
    return result;
}

Shape as_shape(std::span<const std::int64_t> axes) {
    return {axes.begin(), axes.end()};
}

// The axes normalized against ndim, each at most once.
std::vector<bool> marked_axes(std::span<const std::int64_t> axes, std::int64_t ndim,
                              std::string_view caller) {
    std::vector<bool> marked(static_cast<std::size_t>(ndim), false);
    for (const std::int64_t axis : axes) {
        const auto position = static_cast<std::size_t>(normalize_axis(axis, ndim, caller));
        if (marked[position]) {
            throw Error(context(caller) + "repeated axis " + std::to_string(axis) + " in axes " +
                        to_string(as_shape(axes)));
        }
        marked[position] = true;
    }
    return marked;
}

// A dense layout whose strides grow from the fastest-varying axis outwards.
Layout contiguous(const Shape& shape, std::size_t itemsize, std::string_view caller,
                  const std::vector<std::size_t>& fastest_first) {
    (void)checked_size(shape, itemsize, caller);
    Layout layout{shape, Strides(shape.size(), 0), 0};
    auto stride = static_cast<std::int64_t>(itemsize);
    for (const std::size_t axis : fastest_first) {
        layout.strides[axis] = stride;
        stride *= std::max<std::int64_t>(shape[axis], 1);
    }
    return layout;
}

bool is_dense(const Layout& layout, std::size_t itemsize,
              const std::vector<std::size_t>& fastest_first) {
    if (layout.size() == 0) {
        return true;
    }
    auto expected = static_cast<std::int64_t>(itemsize);
    for (const std::size_t axis : fastest_first) {
        if (layout.shape[axis] == 1) {
            continue;
        }
        // A product that overflows exceeds every stride the remaining axes could match.
        if (layout.strides[axis] != expected ||
            __builtin_mul_overflow(expected, layout.shape[axis], &expected)) {
            return false;
        }
    }
    return true;
}

std::vector<std::size_t> last_axis_first(std::size_t ndim) {
    std::vector<std::size_t> axes(ndim);
    std::iota(axes.rbegin(), axes.rend(), std::size_t{0});
    return axes;
}

std::vector<std::size_t> first_axis_first(std::size_t ndim) {
    std::vector<std::size_t> axes(ndim);
    std::iota(axes.begin(), axes.end(), std::size_t{0});
    return axes;
}

// new_shape with its -1, if any, replaced by the extent that makes its size equal `size`.
void infer_unknown_extent(Shape& new_shape, std::int64_t size) {
    const auto unknowns = std::ranges::count(new_shape, -1);
    if (unknowns > 1) {
        throw ShapeError("kiln: reshape: can only specify one unknown dimension (-1) in shape " +
                         to_string(new_shape));
    }
    if (std::ranges::any_of(new_shape, [](std::int64_t extent) { return extent < -1; })) {
        throw ShapeError("kiln: reshape: negative dimensions are not allowed in shape " +
                         to_string(new_shape));
    }
    if (unknowns == 0) {
        return;
    }
    std::int64_t known = 1;
    for (const std::int64_t extent : new_shape) {
        if (extent != -1 && __builtin_mul_overflow(known, extent, &known)) {
            known = 0;  // no size matches
            break;
        }
    }
    if (known == 0 || size % known != 0) {
        throw ShapeError("kiln: reshape: cannot reshape array of size " + std::to_string(size) +
                         " into shape " + to_string(new_shape));
    }
    *std::ranges::find(new_shape, -1) = size / known;
}

std::vector<std::size_t> axes_longer_than_one(const Shape& shape) {
    std::vector<std::size_t> axes;
    for (std::size_t axis = 0; axis < shape.size(); ++axis) {
        if (shape[axis] != 1) {
            axes.push_back(axis);
        }
    }
    return axes;
}

// Start and length of a slice of an axis of `extent` elements, clipped as Python's
// slice.indices() does.
struct SliceSpan {
    std::int64_t start = 0;
    std::int64_t length = 0;
};

SliceSpan resolve(const Slice& slice, std::int64_t extent) {
    const bool forward = slice.step > 0;
    // Bounds of start and stop: the first and one past the last position in stepping order.
    const std::int64_t first = forward ? 0 : extent - 1;
    const std::int64_t past_last = forward ? extent : -1;
    auto clip = [&](std::optional<std::int64_t> bound, std::int64_t absent) {
        if (!bound) {
            return absent;
        }
        const std::int64_t position = *bound < 0 ? *bound + extent : *bound;
        return std::clamp(position, std::min(first, past_last), std::max(first, past_last));
    };
    const std::int64_t start = clip(slice.start, first);
    const std::int64_t stop = clip(slice.stop, past_last);
    // Both differences are at most extent + 1 in size, so nothing overflows, even for a step
    // of INT64_MIN.
    if (forward && start < stop) {
        return {start, (stop - start - 1) / slice.step + 1};
    }
    if (!forward && stop < start) {
        return {start, (stop - start + 1) / slice.step + 1};
    }
    return {};
}

}  // namespace

std::int64_t Layout::size() const {
    std::int64_t count = 1;
    for (const std::int64_t extent : shape) {
        if (__builtin_mul_overflow(count, extent, &count)) {
            throw Error("kiln: the size of an array of shape " + to_string(shape) +
                        " overflows int64");
        }
    }
    return count;
}

std::int64_t checked_size(const Shape& shape, std::size_t itemsize, std::string_view caller) {
    if (std::ranges::any_of(shape, [](std::int64_t extent) { return extent < 0; })) {
        throw ShapeError(context(caller) + "negative dimensions are not allowed in shape " +
                         to_string(shape));
    }
    bool fits = itemsize <= static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
    auto bytes = static_cast<std::int64_t>(itemsize);
    std::int64_t count = 1;
    bool empty = false;
    for (const std::int64_t extent : shape) {
        if (extent == 0) {
            empty = true;
            continue;
        }
        fits = fits && !__builtin_mul_overflow(bytes, extent, &bytes) &&
               !__builtin_mul_overflow(count, extent, &count);
    }
    if (!fits) {
        throw ShapeError(context(caller) + "an array of shape " + to_string(shape) +
                         " and itemsize " + std::to_string(itemsize) +
                         " is too large: its size in bytes overflows int64");
    }
    return empty ? 0 : count;
}

Layout c_contiguous(const Shape& shape, std::size_t itemsize, std::string_view caller) {
    return contiguous(shape, itemsize, caller, last_axis_first(shape.size()));
}

Strides c_contiguous_strides(const Shape& shape, std::size_t itemsize, std::string_view caller) {
    (void)checked_size(shape, itemsize, caller);
    Strides strides(shape.size(), 0);
    auto stride = static_cast<std::int64_t>(itemsize);
    for (std::size_t axis = shape.size(); axis-- > 0;) {
        strides[axis] = stride;
        stride *= std::max<std::int64_t>(shape[axis], 1);
    }
    return strides;
}

Layout f_contiguous(const Shape& shape, std::size_t itemsize, std::string_view caller) {
    return contiguous(shape, itemsize, caller, first_axis_first(shape.size()));
}

bool is_c_contiguous(const Layout& layout, std::size_t itemsize) {
    return is_dense(layout, itemsize, last_axis_first(layout.shape.size()));
}

bool is_f_contiguous(const Layout& layout, std::size_t itemsize) {
    return is_dense(layout, itemsize, first_axis_first(layout.shape.size()));
}

std::int64_t normalize_axis(std::int64_t axis, std::int64_t ndim, std::string_view caller) {
    if (axis < -ndim || axis >= ndim) {
        throw IndexError(context(caller) + "axis " + std::to_string(axis) +
                         " is out of bounds for array of dimension " + std::to_string(ndim));
    }
    return axis < 0 ? axis + ndim : axis;
}

std::optional<Layout> reshape_view(const Layout& layout, Shape new_shape, std::size_t itemsize) {
    const std::int64_t size = layout.size();
    infer_unknown_extent(new_shape, size);
    if (checked_size(new_shape, itemsize, "reshape") != size) {
        throw ShapeError("kiln: reshape: cannot reshape array of size " + std::to_string(size) +
                         " into shape " + to_string(new_shape));
    }
    if (size == 0) {
        Layout view = c_contiguous(new_shape, itemsize, "reshape");
        view.offset = layout.offset;
        return view;
    }
    // Extent-1 axes hold no steps, so only the longer axes are matched: old and new axes split
    // into consecutive groups of equal element count, and each old group must be one run of
    // memory in C order, which the new group then walks with the same innermost stride.
    const std::vector<std::size_t> old_axes = axes_longer_than_one(layout.shape);
    const std::vector<std::size_t> new_axes = axes_longer_than_one(new_shape);
    Strides strides(new_shape.size(), 0);
    std::size_t old_begin = 0;
    std::size_t new_begin = 0;
    while (old_begin < old_axes.size()) {
        std::size_t old_end = old_begin + 1;
        std::size_t new_end = new_begin + 1;
        std::int64_t old_count = layout.shape[old_axes[old_begin]];
        std::int64_t new_count = new_shape[new_axes[new_begin]];
        while (old_count != new_count) {
            if (old_count < new_count) {
                old_count *= layout.shape[old_axes[old_end++]];
            } else {
                new_count *= new_shape[new_axes[new_end++]];
            }
        }
        for (std::size_t k = old_begin; k + 1 < old_end; ++k) {
            const std::size_t outer = old_axes[k];
            const std::size_t inner = old_axes[k + 1];
            std::int64_t run = 0;
            if (__builtin_mul_overflow(layout.strides[inner], layout.shape[inner], &run) ||
                layout.strides[outer] != run) {
                return std::nullopt;
            }
        }
        std::int64_t stride = layout.strides[old_axes[old_end - 1]];
        for (std::size_t k = new_end; k-- > new_begin;) {
            strides[new_axes[k]] = stride;
            if (k > new_begin) {
                stride = checked_multiply(stride, new_shape[new_axes[k]], "reshape");
            }
        }
        old_begin = old_end;
        new_begin = new_end;
    }
    // Extent-1 axes get the strides NumPy gives them: those after the last longer axis repeat
    // the stride before them, the others step over their right neighbour's extent.
    const std::size_t trailing = new_axes.empty() ? 0 : new_axes.back() + 1;
    for (std::size_t axis = trailing; axis < new_shape.size(); ++axis) {
        strides[axis] = axis == 0 ? static_cast<std::int64_t>(itemsize) : strides[axis - 1];
    }
    for (std::size_t axis = trailing; axis-- > 0;) {
        if (new_shape[axis] == 1) {
            strides[axis] = checked_multiply(strides[axis + 1], new_shape[axis + 1], "reshape");
        }
    }
    return Layout{std::move(new_shape), std::move(strides), layout.offset};
}

Layout transpose(const Layout& layout, std::span<const std::int64_t> axes) {
    const std::int64_t ndim = layout.ndim();
    std::vector<std::int64_t> order(layout.shape.size());
    if (axes.empty()) {
        std::iota(order.rbegin(), order.rend(), std::int64_t{0});
    } else {
        if (std::cmp_not_equal(axes.size(), ndim)) {
            throw Error("kiln: transpose: axes " + to_string(as_shape(axes)) +
                        " don't match an array of dimension " + std::to_string(ndim) +
                        ": expected " + std::to_string(ndim) + " axes, got " +
                        std::to_string(axes.size()));
        }
        (void)marked_axes(axes, ndim, "transpose");  // each axis in range, at most once
        std::ranges::transform(axes, order.begin(), [ndim](std::int64_t axis) {
            return normalize_axis(axis, ndim, "transpose");
        });
    }
    Layout result{Shape(order.size()), Strides(order.size()), layout.offset};
    for (std::size_t i = 0; i < order.size(); ++i) {
        result.shape[i] = layout.shape[static_cast<std::size_t>(order[i])];
        result.strides[i] = layout.strides[static_cast<std::size_t>(order[i])];
    }
    return result;
}

Layout slice(const Layout& layout, std::span<const Index> indices) {
    const auto ellipses = std::ranges::count_if(
        indices, [](const Index& index) { return std::holds_alternative<Ellipsis>(index); });
    if (ellipses > 1) {
        throw IndexError("kiln: slice: an index can only have a single ellipsis (...)");
    }
    const auto consumed = std::ranges::count_if(indices, [](const Index& index) {
        return std::holds_alternative<std::int64_t>(index) || std::holds_alternative<Slice>(index);
    });
    if (consumed > layout.ndim()) {
        throw IndexError("kiln: slice: too many indices for array: array is " +
                         std::to_string(layout.ndim()) + "-dimensional, but " +
                         std::to_string(consumed) + " were indexed");
    }
    Layout result{{}, {}, layout.offset};
    std::size_t axis = 0;
    auto keep_axes = [&](std::size_t count) {
        for (std::size_t end = axis + count; axis < end; ++axis) {
            result.shape.push_back(layout.shape[axis]);
            result.strides.push_back(layout.strides[axis]);
        }
    };
    for (const Index& index : indices) {
        if (const auto* integer = std::get_if<std::int64_t>(&index)) {
            const std::int64_t extent = layout.shape[axis];
            if (*integer < -extent || *integer >= extent) {
                throw IndexError("kiln: slice: index " + std::to_string(*integer) +
                                 " is out of bounds for axis " + std::to_string(axis) +
                                 " with size " + std::to_string(extent));
            }
            const std::int64_t position = *integer < 0 ? *integer + extent : *integer;
            result.offset = checked_add(
                result.offset, checked_multiply(position, layout.strides[axis], "slice"), "slice");
            ++axis;
        } else if (const auto* range = std::get_if<Slice>(&index)) {
            if (range->step == 0) {
                throw IndexError("kiln: slice: slice step cannot be zero");
            }
            const std::int64_t stride = layout.strides[axis];
            const SliceSpan span = resolve(*range, layout.shape[axis]);
            std::int64_t stepped = stride;
            // A one-element axis never steps, so its stride may stay put if the product would
            // overflow; an empty one keeps it as NumPy does.
            if (span.length > 0 && __builtin_mul_overflow(stride, range->step, &stepped)) {
                if (span.length > 1) {
                    throw Error("kiln: slice: byte offsets overflow int64");
                }
                stepped = stride;
            }
            result.shape.push_back(span.length);
            result.strides.push_back(stepped);
            result.offset =
                checked_add(result.offset, checked_multiply(span.start, stride, "slice"), "slice");
            ++axis;
        } else if (std::holds_alternative<NewAxis>(index)) {
            result.shape.push_back(1);
            result.strides.push_back(0);
        } else {
            keep_axes(static_cast<std::size_t>(layout.ndim() - consumed));
        }
    }
    keep_axes(layout.shape.size() - axis);
    return result;
}

Layout broadcast_to(const Layout& layout, const Shape& shape, std::size_t itemsize) {
    (void)checked_size(shape, itemsize, "broadcast_to");
    const auto fail = [&](const std::string& why) {
        return ShapeError("kiln: broadcast_to: cannot broadcast an array of shape " +
                          to_string(layout.shape) + " to shape " + to_string(shape) + why);
    };
    if (shape.size() < layout.shape.size()) {
        throw fail(": the target has fewer dimensions");
    }
    const std::size_t lead = shape.size() - layout.shape.size();
    Layout result{shape, Strides(shape.size(), 0), layout.offset};
    for (std::size_t axis = 0; axis < layout.shape.size(); ++axis) {
        const std::int64_t target = shape[lead + axis];
        if (layout.shape[axis] == target) {
            // NumPy gives every extent-1 axis of the result stride 0, not only the new ones.
            result.strides[lead + axis] = target == 1 ? 0 : layout.strides[axis];
        } else if (layout.shape[axis] != 1) {
            throw fail("");
        }
    }
    return result;
}

Layout squeeze(const Layout& layout, const std::optional<std::vector<std::int64_t>>& axes) {
    std::vector<bool> removed(layout.shape.size(), false);
    if (axes) {
        removed = marked_axes(*axes, layout.ndim(), "squeeze");
        for (std::size_t axis = 0; axis < removed.size(); ++axis) {
            if (removed[axis] && layout.shape[axis] != 1) {
                throw ShapeError("kiln: squeeze: cannot squeeze axis " + std::to_string(axis) +
                                 " of an array of shape " + to_string(layout.shape) +
                                 ": its size is " + std::to_string(layout.shape[axis]) + ", not 1");
            }
        }
    } else {
        for (std::size_t axis = 0; axis < removed.size(); ++axis) {
            removed[axis] = layout.shape[axis] == 1;
        }
    }
    Layout result{{}, {}, layout.offset};
    for (std::size_t axis = 0; axis < removed.size(); ++axis) {
        if (!removed[axis]) {
            result.shape.push_back(layout.shape[axis]);
            result.strides.push_back(layout.strides[axis]);
        }
    }
    return result;
}

Layout expand_dims(const Layout& layout, std::span<const std::int64_t> axes, std::size_t itemsize) {
    const std::vector<bool> inserted =
        marked_axes(axes, layout.ndim() + static_cast<std::int64_t>(axes.size()), "expand_dims");
    Shape shape;
    std::size_t source = 0;
    for (const bool is_new : inserted) {
        shape.push_back(is_new ? 1 : layout.shape[source++]);
    }
    // Only extent-1 axes are added, and those never need a copy.
    return reshape_view(layout, std::move(shape), itemsize).value();
}

std::pair<std::int64_t, std::int64_t> byte_extent(const Layout& layout, std::size_t itemsize) {
    if (layout.size() == 0) {
        return {0, 0};
    }
    std::int64_t low = layout.offset;
    std::int64_t high = layout.offset;
    for (std::size_t axis = 0; axis < layout.shape.size(); ++axis) {
        const std::int64_t reach =
            checked_multiply(layout.strides[axis], layout.shape[axis] - 1, "byte_extent");
        if (reach < 0) {
            low = checked_add(low, reach, "byte_extent");
        } else {
            high = checked_add(high, reach, "byte_extent");
        }
    }
    return {low, checked_add(high, static_cast<std::int64_t>(itemsize), "byte_extent")};
}

}  // namespace kiln::detail
