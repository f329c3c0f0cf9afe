// cumsum and cumprod: the dtypes and checks of NumPy's, then a scan kernel chosen by where the
// scanned axis lies in memory.
#include "../array/array_memory.hpp"
#include "../call_context.hpp"
#include "../kernels/builtin/array_copy.hpp"
#include "../kernels/builtin/builtin_kernels.hpp"
#include "../kernels/builtin/scan_kernels.hpp"
#include "../layout.hpp"
#include "copy_into.hpp"

#include <kiln/error.hpp>
#include <kiln/memory_overlap.hpp>
#include <kiln/scans.hpp>
#include <kiln/shape.hpp>

#include <numeric>
#include <string>
#include <vector>

namespace kiln {

namespace {

using detail::ScanDtypes;
using detail::ScanOperation;

// Down columns, a thread per column keeps the GPU busy only when there are this many.
constexpr std::int64_t enough_columns = 65536;

// sum's and prod's dtypes: small integers widen to 64 bits, float16 accumulates in float32.
ScanDtypes scan_dtypes(DType in, const std::optional<DType>& requested) {
    DType result = in;
    if (requested) {
        result = *requested;
    } else if (kind(in) == 'b' || (kind(in) == 'i' && in != DType::int64)) {
        result = DType::int64;
    } else if (kind(in) == 'u' && in != DType::uint64) {
        result = DType::uint64;
    }
    return {in, result == DType::float16 ? DType::float32 : result, result};
}

std::int64_t extent_product(const Shape& shape, std::size_t from, std::size_t to) {
    return std::accumulate(shape.begin() + static_cast<std::ptrdiff_t>(from),
                           shape.begin() + static_cast<std::ptrdiff_t>(to), std::int64_t{1},
                           std::multiplies<>());
}

// Scans `source` (C-contiguous) along `axis` into `target` (C-contiguous, the same shape).
void scan_contiguous(ScanOperation operation, const ScanDtypes& dtypes, const ndarray& source,
                     const ndarray& target, std::size_t axis, StreamView stream) {
    const Shape& shape = source.shape();
    const std::int64_t outer = extent_product(shape, 0, axis);
    const std::int64_t length = shape[axis];
    const std::int64_t inner = extent_product(shape, axis + 1, shape.size());
    if (inner == 1) {
        detail::scan_rows(operation, dtypes, source.data(), target.data(), outer, length, stream);
        return;
    }
    if (outer * inner >= enough_columns) {
        detail::scan_columns(operation, dtypes, source.data(), target.data(), outer, length, inner,
                             stream);
        return;
    }
    // Few, long columns: move the axis last, scan rows, and move it back.
    std::vector<std::int64_t> order(shape.size());
    std::iota(order.begin(), order.end(), std::int64_t{0});
    order.erase(order.begin() + static_cast<std::ptrdiff_t>(axis));
    order.push_back(static_cast<std::int64_t>(axis));
    const ndarray moved = detail::astype_on(source.transpose(order), source.dtype(), stream);
    const ndarray scanned = detail::empty_on(moved.shape(), target.dtype(), stream);
    detail::scan_rows(operation, dtypes, moved.data(), scanned.data(), outer * inner, length,
                      stream);
    std::vector<std::int64_t> back(shape.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        back[static_cast<std::size_t>(order[k])] = static_cast<std::int64_t>(k);
    }
    const ndarray restored = scanned.transpose(back);
    detail::copy_elements(shape, {target.data(), target.dtype(), target.strides()},
                          {restored.data(), restored.dtype(), restored.strides()}, stream);
}

ndarray scan(ScanOperation operation, const char* routine, const ndarray& a,
             const ScanOptions& options) {
    const auto context = [&] { return "kiln: " + std::string(routine) + ": "; };
    const StreamView stream = detail::call_context(routine, options.stream, a.device());
    detail::CrossDeviceOrder order(stream);
    order.reach(routine, "a", a);
    if (options.out) {
        order.reach(routine, "out", *options.out);
    }
    if (options.dtype && !can_cast(a.dtype(), *options.dtype, Casting::same_kind)) {
        throw TypeError(context() + "the array's dtype " + std::string(name(a.dtype())) +
                        " cannot be cast to the requested dtype " +
                        std::string(name(*options.dtype)) + " under 'same_kind' casting");
    }
    ScanDtypes dtypes = scan_dtypes(a.dtype(), options.dtype);
    // NumPy's axis=None scans the array flattened in C order.
    const ndarray flat = options.axis ? a : a.reshape({a.size()});
    const std::size_t axis =
        options.axis
            ? static_cast<std::size_t>(detail::normalize_axis(*options.axis, a.ndim(), routine))
            : 0;
    if (options.out) {
        if (options.out->shape() != flat.shape()) {
            throw ShapeError(context() + "out has shape " + to_string(options.out->shape()) +
                             "; the result's shape is " + to_string(flat.shape()));
        }
        if (!can_cast(dtypes.out, options.out->dtype(), Casting::same_kind)) {
            throw TypeError(context() + "out has dtype " + std::string(name(options.out->dtype())) +
                            "; the result's dtype " + std::string(name(dtypes.out)) +
                            " does not cast to it under 'same_kind' casting");
        }
        dtypes.out = options.out->dtype();
    }
    // The kernels read each tile, or each element, before writing it, so `out` may be the input
    // itself; any other overlap goes through a temporary.
    const bool direct = options.out && options.out->c_contiguous() &&
                        (!may_share_memory(*options.out, a) ||
                         (a.c_contiguous() && options.out->data() == a.data() &&
                          options.out->itemsize() == a.itemsize()));
    ndarray target = direct ? *options.out : detail::empty_on(flat.shape(), dtypes.out, stream);
    if (flat.size() != 0) {
        const ndarray source =
            flat.c_contiguous() ? flat : detail::astype_on(flat, flat.dtype(), stream);
        scan_contiguous(operation, dtypes, source, target, axis, stream);
    }
    if (options.out && !direct) {
        detail::copy_into(*options.out, target, stream);
    }
    order.done();
    return options.out && !direct ? *options.out : target;
}

}  // namespace

ndarray cumsum(const ndarray& a, const ScanOptions& options) {
    return scan(ScanOperation::sum, "cumsum", a, options);
}

ndarray cumprod(const ndarray& a, const ScanOptions& options) {
    return scan(ScanOperation::product, "cumprod", a, options);
}

}  // namespace kiln
