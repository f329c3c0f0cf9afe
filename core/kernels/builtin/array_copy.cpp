#include "array_copy.hpp"

#include "../../array/array_memory.hpp"
#include "../../backend.hpp"
#include "builtin_kernels.hpp"

namespace kiln::detail {

ndarray astype_on(const ndarray& a, DType dtype, StreamView stream) {
    ndarray out = empty_on(a.shape(), dtype, stream);
    if (dtype == a.dtype() && a.c_contiguous()) {
        backend().copy_async(out.data(), a.data(), a.nbytes(), stream);
    } else {
        copy_elements(a.shape(), {out.data(), dtype, out.strides()},
                      {a.data(), a.dtype(), a.strides()}, stream);
    }
    return out;
}

}  // namespace kiln::detail
