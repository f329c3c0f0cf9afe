// concatenate and stack: the joined shape from join_plan, then one strided cast-copy per array
// into its slice of the result.
#include "../array/array_layout.hpp"
#include "../array/array_memory.hpp"
#include "../call_context.hpp"
#include "../kernels/builtin/array_copy.hpp"
#include "copy_into.hpp"
#include "join_plan.hpp"
#include "promotion.hpp"

#include <kiln/error.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/memory_overlap.hpp>

#include <string>
#include <vector>

namespace kiln {

namespace {

std::vector<Shape> shapes_of(std::span<const ndarray> arrays) {
    std::vector<Shape> shapes;
    shapes.reserve(arrays.size());
    for (const ndarray& a : arrays) {
        shapes.push_back(a.shape());
    }
    return shapes;
}

std::string array_name(std::size_t i) {
    return "array " + std::to_string(i);
}

// The result's dtype: out's, the requested one, or the arrays' promoted dtype; every array must
// cast to it.
DType joined_dtype(const char* routine, std::span<const ndarray> parts,
                   const JoinOptions& options) {
    if (options.out && options.dtype) {
        throw TypeError("kiln: " + std::string(routine) + ": takes out or dtype, not both");
    }
    std::vector<DType> dtypes;
    dtypes.reserve(parts.size());
    for (const ndarray& part : parts) {
        dtypes.push_back(part.dtype());
    }
    const DType dtype =
        options.out ? options.out->dtype() : options.dtype.value_or(detail::promote_dtypes(dtypes));
    for (std::size_t i = 0; i < parts.size(); ++i) {
        detail::require_cast(routine, array_name(i), parts[i].dtype(), dtype, options.casting);
    }
    return dtype;
}

// How far `source` reaches along plan.axis of the result.
std::int64_t extent_of(const ndarray& source, const detail::JoinPlan& plan, bool flattened) {
    return flattened ? source.size() : source.shape()[static_cast<std::size_t>(plan.axis)];
}

// The piece of `out` that `source` fills, from element `start` along plan.axis; with `flattened`,
// a run of out (1-D) seen in source's shape, which always has a view.
ndarray piece_of(const ndarray& out, const ndarray& source, const detail::JoinPlan& plan,
                 bool flattened, std::int64_t start) {
    const std::int64_t extent = extent_of(source, plan, flattened);
    std::vector<Index> indices(static_cast<std::size_t>(plan.axis) + 1, Slice{});
    indices.back() = Slice{start, start + extent};
    ndarray piece = out.slice(indices);
    if (!flattened) {
        return piece;
    }
    return detail::with_layout(
        piece,
        detail::reshape_view(detail::layout_of(piece), source.shape(), piece.itemsize()).value());
}

// Writes `parts`, whose extents along plan.axis (or sizes, when `flattened`) are consecutive
// pieces of plan.shape, into out (or a new array) on the call's device.
ndarray join(const char* routine, std::span<const ndarray> parts, const detail::JoinPlan& plan,
             bool flattened, const JoinOptions& options) {
    const DType dtype = joined_dtype(routine, parts, options);
    const std::optional<int> first =
        options.out ? options.out->device()
                    : (parts.empty() ? std::nullopt : std::optional<int>(parts.front().device()));
    const StreamView stream = detail::call_context(routine, options.stream, first);
    detail::CrossDeviceOrder order(stream);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        order.reach(routine, array_name(i), parts[i]);
    }
    ndarray out;
    if (options.out) {
        out = *options.out;
        order.reach(routine, "out", out);
        if (out.shape() != plan.shape) {
            throw ShapeError("kiln: " + std::string(routine) + ": out has shape " +
                             to_string(out.shape()) + " but the result's shape is " +
                             to_string(plan.shape));
        }
    } else {
        out = detail::empty_on(plan.shape, dtype, stream);
    }
    // An array that overlaps out is read whole before any piece of out is written.
    std::vector<ndarray> sources(parts.begin(), parts.end());
    for (ndarray& source : sources) {
        if (options.out && may_share_memory(source, out)) {
            source = detail::astype_on(source, source.dtype(), stream);
        }
    }
    std::int64_t start = 0;
    for (const ndarray& source : sources) {
        detail::copy_into(piece_of(out, source, plan, flattened, start), source, stream);
        start += extent_of(source, plan, flattened);
    }
    order.done();
    return out;
}

}  // namespace

ndarray concatenate(std::span<const ndarray> arrays, std::optional<std::int64_t> axis,
                    const JoinOptions& options) {
    const detail::JoinPlan plan = detail::plan_concatenate(shapes_of(arrays), axis);
    return join("concatenate", arrays, plan, !axis, options);
}

ndarray concatenate(std::initializer_list<ndarray> arrays, std::optional<std::int64_t> axis,
                    const JoinOptions& options) {
    return concatenate(std::span<const ndarray>(arrays.begin(), arrays.size()), axis, options);
}

ndarray stack(std::span<const ndarray> arrays, std::int64_t axis, const JoinOptions& options) {
    const detail::JoinPlan plan = detail::plan_stack(shapes_of(arrays), axis);
    std::vector<ndarray> expanded;
    expanded.reserve(arrays.size());
    for (const ndarray& a : arrays) {
        expanded.push_back(expand_dims(a, {plan.axis}));
    }
    return join("stack", expanded, plan, false, options);
}

ndarray stack(std::initializer_list<ndarray> arrays, std::int64_t axis,
              const JoinOptions& options) {
    return stack(std::span<const ndarray>(arrays.begin(), arrays.size()), axis, options);
}

}  // namespace kiln
