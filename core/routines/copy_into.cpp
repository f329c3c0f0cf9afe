#include "copy_into.hpp"
#include "../call_context.hpp"

#include "../array/array_memory.hpp"
#include "../backend.hpp"
#include "../kernels/builtin/array_copy.hpp"
#include "../kernels/builtin/builtin_kernels.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/memory_overlap.hpp>
#include <kiln/stream.hpp>

#include <string>

namespace kiln::detail {

std::string_view casting_name(Casting casting) {
    switch (casting) {
        case Casting::no:
            return "no";
        case Casting::equiv:
            return "equiv";
        case Casting::safe:
            return "safe";
        case Casting::same_kind:
            return "same_kind";
        case Casting::unsafe:
            return "unsafe";
    }
    throw_invalid_casting("casting", casting);
}

void require_cast(std::string_view routine, std::string_view what, DType from, DType to,
                  Casting casting) {
    if (!can_cast(from, to, casting)) {
        throw TypeError("kiln: " + std::string(routine) + ": cannot cast " + std::string(what) +
                        " from " + std::string(name(from)) + " to " + std::string(name(to)) +
                        " under '" + std::string(casting_name(casting)) + "' casting");
    }
}

namespace {

// Copies the C-contiguous `src` of another device into `dst`'s bytes on `stream`, after the work
// queued on src's device's current stream `src_stream`, which then waits for the copy: src's
// device frees or reuses the memory read here only after it. Both arrays are computed first, and
// the events are recorded and waited on through the backend, so that the expressions still
// deferred on either stream stay deferred (a user's Event.record would launch them). Peer access
// is enabled where the devices allow it: the driver then copies device to device, where it would
// stage the bytes through the host (on two H200s an 8-byte copy took 5 us of host time, not 13).
void copy_bytes_across(const ndarray& dst, const ndarray& src, StreamView src_stream,
                       StreamView stream) {
    src_stream = src_stream.or_device(src.device());
    stream = stream.or_device(dst.device());
    (void)reachable(stream.device(), src.device());
    const void* const from = src.data();
    void* const to = dst.data();
    Backend& gpu = backend();
    const Event produced(Device(src.device()), {.disable_timing = true});
    gpu.record_event(produced.native(), src_stream);
    gpu.stream_wait_event(stream, produced.native());
    gpu.copy_async(to, from, src.nbytes(), stream);
    const Event copied(Device(stream.device()), {.disable_timing = true});
    gpu.record_event(copied.native(), stream);
    gpu.stream_wait_event(src_stream, copied.native());
}

}  // namespace

ndarray copy_from_device(const ndarray& src, StreamView stream) {
    // Packed on its own device and stream first.
    const StreamView src_stream = current_stream_of(src.device());
    const ndarray packed = src.c_contiguous() ? src : astype_on(src, src.dtype(), src_stream);
    ndarray copy = empty_on(src.shape(), src.dtype(), stream);
    copy_bytes_across(copy, packed, src_stream, stream);
    return copy;
}

void copy_across_devices(const ndarray& dst, const ndarray& src, StreamView stream) {
    if (dst.shape() == src.shape() && dst.dtype() == src.dtype() && dst.c_contiguous() &&
        src.c_contiguous() && !may_share_memory(dst, src)) {
        copy_bytes_across(dst, src, current_stream_of(src.device()), stream);
        return;
    }
    copy_into(dst, copy_from_device(src, stream), stream);
}

void copy_into(const ndarray& dst, const ndarray& src, StreamView stream) {
    if (dst.size() == 0) {
        return;
    }
    // A C-contiguous copy of an overlapping source keeps its shape, so it broadcasts the same.
    const ndarray separate = may_share_memory(dst, src) ? astype_on(src, src.dtype(), stream) : src;
    const ndarray source = broadcast_to(separate, dst.shape());
    if (source.dtype() == dst.dtype() && source.c_contiguous() && dst.c_contiguous()) {
        backend().copy_async(dst.data(), source.data(), dst.nbytes(), stream);
        return;
    }
    copy_elements(dst.shape(), {dst.data(), dst.dtype(), dst.strides()},
                  {source.data(), source.dtype(), source.strides()}, stream);
}

}  // namespace kiln::detail
