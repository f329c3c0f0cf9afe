// Host <-> device transfers of ndarrays (get and set): a strided array goes through a copy kernel.
#include "../array/array_memory.hpp"
#include "../array/staged_copy.hpp"
#include "../backend.hpp"
#include "../call_context.hpp"
#include "../kernels/builtin/array_copy.hpp"
#include "../kernels/builtin/builtin_kernels.hpp"
#include "../profiling.hpp"

#include <kiln/device.hpp>
#include <kiln/ndarray.hpp>

#include <string>

namespace kiln {

namespace {

void check_buffer(const char* function, const ndarray& a, std::size_t count, DType type) {
    if (type != a.dtype()) {
        throw TypeError(std::string("kiln: ") + function + ": the array holds " +
                        std::string(name(a.dtype())) + " but the host buffer is " +
                        std::string(name(type)));
    }
    if (count != static_cast<std::size_t>(a.size())) {
        throw ShapeError(std::string("kiln: ") + function + ": the array " + to_string(a.shape()) +
                         " has " + std::to_string(a.size()) +
                         " elements but the host buffer holds " + std::to_string(count));
    }
}

}  // namespace

void ndarray::to_host(void* out, std::size_t count, DType type,
                      std::optional<StreamView> stream) const {
    check_buffer("get", *this, count, type);
    if (size_ == 0) {
        return;
    }
    const detail::ProfileRange range("kiln: copy to host");
    const StreamView on = detail::call_stream("ndarray.get", device_, stream);
    const ndarray source = c_contiguous() ? *this : detail::astype_on(*this, dtype_, on);
    if (stream) {
        // Into the caller's buffer directly: truly asynchronous when that buffer is pinned.
        detail::backend().copy_async(out, source.data(), nbytes(), on);
    } else {
        detail::staged_download(out, source.data(), nbytes(), on);
    }
}

void ndarray::from_host(const void* values, std::size_t count, DType type,
                        std::optional<StreamView> stream) {
    check_buffer("set", *this, count, type);
    if (size_ == 0) {
        return;
    }
    const detail::ProfileRange range("kiln: copy from host");
    const StreamView on = detail::call_stream("ndarray.set", device_, stream);
    const ndarray target = c_contiguous() ? *this : detail::empty_on(shape(), dtype_, on);
    detail::staged_upload(target.data(), values, nbytes(), on);
    if (!c_contiguous()) {
        detail::copy_elements(shape(), {data(), dtype_, strides()},
                              {target.data(), dtype_, target.strides()}, on);
    }
    if (!stream) {
        synchronize(on);
    }
}

}  // namespace kiln
