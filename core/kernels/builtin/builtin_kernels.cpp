#include "builtin_kernels.hpp"

#include "../../backend.hpp"
#include "../../codegen/device_header_texts.hpp"
#include "../../codegen/device_prelude.hpp"
#include "../../codegen/kernel_dialect.hpp"
#include "../builtin_kernel.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>

#include <algorithm>
#include <array>
#include <functional>
#include <string>

namespace kiln::detail {

namespace {

// Shapes and byte strides of up to two operands, passed by value to every built-in kernel.
struct Dims {
    std::array<long long, max_builtin_ndim> shape{};
    std::array<long long, max_builtin_ndim> dst{};
    std::array<long long, max_builtin_ndim> src{};
    int ndim = 0;
};

std::int64_t element_count(std::span<const std::int64_t> shape) {
    std::int64_t count = 1;
    for (auto extent : shape) {
        count *= extent;
    }
    return count;
}

Dims make_dims(std::span<const std::int64_t> shape, std::span<const std::int64_t> dst,
               std::span<const std::int64_t> src) {
    if (shape.size() > max_builtin_ndim) {
        throw ShapeError("kiln: arrays of more than " + std::to_string(max_builtin_ndim) +
                         " dimensions are not supported (got " + std::to_string(shape.size()) +
                         ")");
    }
    Dims dims;
    dims.ndim = static_cast<int>(shape.size());
    std::copy(shape.begin(), shape.end(), dims.shape.begin());
    std::copy(dst.begin(), dst.end(), dims.dst.begin());
    std::copy(src.begin(), src.end(), dims.src.begin());
    return dims;
}

// What every built-in kernel's source starts with.
std::string common_source(const KernelDialect& dialect) {
    return std::string(device_prelude()) + std::string(dialect.for_each_index_macro) + "\n" +
           std::string(header_text::dims_h().text);
}

std::string type_of(DType dtype) {
    return std::string(c_type(dtype));
}

}  // namespace

std::string conversion(DType from, DType to) {
    const std::string target = type_of(to);
    const bool from_complex = kind(from) == 'c';
    if (to == DType::bool_) {
        return from_complex ? "(s.re != 0 || s.im != 0)" : "(s != 0)";
    }
    // static_cast, not T(x): a functional cast cannot name "long long" or "signed char".
    const std::string cast = "static_cast<" + target + ">";
    if (from_complex) {
        return kind(to) == 'c' ? cast + "(s)" : cast + "(s.re)";
    }
    if (from == DType::float16) {
        return cast + "(float(s))";
    }
    return cast + "(s)";
}

std::string copy_source(DType from, DType to, const KernelDialect& dialect) {
    return common_source(dialect) +
           dialect.kernel_opening("kiln_copy",
                                  "char* dst, const char* src, long long n, kiln_dims d", {}) +
           "    KILN_FOR_EACH_INDEX(n) {\n"
           "        long long to, from;\n"
           "        kiln_offsets(d, i, to, from);\n"
           "        const " +
           type_of(from) + " s = *reinterpret_cast<const " + type_of(from) +
           "*>(src + from);\n"
           "        *reinterpret_cast<" +
           type_of(to) + "*>(dst + to) = " + conversion(from, to) + ";\n    }\n}\n" +
           dialect.kernel_closing("kiln_copy");
}

std::string fill_source(std::size_t item_bytes, const KernelDialect& dialect) {
    const std::string size = std::to_string(item_bytes);
    return common_source(dialect) + "struct alignas(" + size + ") kiln_word { unsigned char b[" +
           size + "]; };\n" +
           dialect.kernel_opening("kiln_fill",
                                  "char* dst, long long n, kiln_dims d, kiln_word value", {}) +
           "    KILN_FOR_EACH_INDEX(n) {\n"
           "        long long to, unused;\n"
           "        kiln_offsets(d, i, to, unused);\n"
           "        *reinterpret_cast<kiln_word*>(dst + to) = value;\n"
           "    }\n}\n" +
           dialect.kernel_closing("kiln_fill");
}

std::string range_source(DType dtype, const KernelDialect& dialect) {
    const std::string type = type_of(dtype);
    const bool integral = kind(dtype) == 'i' || kind(dtype) == 'u';
    return common_source(dialect) +
           dialect.kernel_opening(
               "kiln_range",
               type + "* out, long long n, double start, double step, double last, int set_last",
               {}) +
           "    KILN_FOR_EACH_INDEX(n) {\n"
           "        const double v = (set_last && i == n - 1) ? last : start + i * step;\n"
           "        out[i] = static_cast<" +
           type + ">(" + (integral ? "floor(v)" : "v") + ");\n    }\n}\n" +
           dialect.kernel_closing("kiln_range");
}

void copy_elements(std::span<const std::int64_t> shape, const StridedElements& dst,
                   const StridedElements& src, StreamView stream) {
    Dims dims = make_dims(shape, dst.strides, src.strides);
    long long count = element_count(shape);
    void* dst_ptr = dst.data;
    void* src_ptr = src.data;
    std::array<void*, 4> args{&dst_ptr, &src_ptr, &count, &dims};
    static constexpr BuiltinKernel kernel("kiln_copy");
    NativeFunction function = kernel.function(
        stream, std::string(name(src.dtype)) + ' ' + std::string(name(dst.dtype)),
        [&](const KernelDialect& dialect) { return copy_source(src.dtype, dst.dtype, dialect); });
    kernel.launch_indices(function, count, stream, args.data());
}

void fill_elements(std::span<const std::int64_t> shape, const StridedElements& dst,
                   const Scalar& value, StreamView stream) {
    Dims dims = make_dims(shape, dst.strides, dst.strides);
    auto bytes = value.bytes_as(dst.dtype);
    long long count = element_count(shape);
    void* dst_ptr = dst.data;
    std::array<void*, 4> args{&dst_ptr, &count, &dims, bytes.data()};
    static constexpr BuiltinKernel kernel("kiln_fill");
    NativeFunction function = kernel.function(
        stream, std::to_string(itemsize(dst.dtype)),
        [&](const KernelDialect& dialect) { return fill_source(itemsize(dst.dtype), dialect); });
    kernel.launch_indices(function, count, stream, args.data());
}

namespace {

void require_real(DType dtype, const char* function) {
    if (kind(dtype) == 'c' || dtype == DType::bool_) {
        throw TypeError(std::string("kiln: ") + function + ": dtype " + std::string(name(dtype)) +
                        " is not supported; expected an integer or floating dtype");
    }
}

// out[i] = start + i * step (`last` for the final element when set_last) for a real dtype;
// integer dtypes round down, as NumPy's linspace does.
void generate(void* out, DType dtype, long long count, double start, double step, double last,
              bool set_last, StreamView stream) {
    int set = set_last ? 1 : 0;
    std::array<void*, 6> args{&out, &count, &start, &step, &last, &set};
    static constexpr BuiltinKernel kernel("kiln_range");
    NativeFunction function =
        kernel.function(stream, std::string(name(dtype)),
                        [&](const KernelDialect& dialect) { return range_source(dtype, dialect); });
    kernel.launch_indices(function, count, stream, args.data());
}

}  // namespace

void arange_elements(void* out, DType dtype, std::int64_t count, double start, double step,
                     StreamView stream) {
    require_real(dtype, "arange");
    generate(out, dtype, count, start, step, 0.0, false, stream);
}

void linspace_elements(void* out, DType dtype, std::int64_t count, double start, double stop,
                       bool endpoint, StreamView stream) {
    require_real(dtype, "linspace");
    const std::int64_t divisions = endpoint ? count - 1 : count;
    const double step = divisions > 0 ? (stop - start) / static_cast<double>(divisions) : 0.0;
    generate(out, dtype, count, start, step, stop, endpoint && count > 1, stream);
}

}  // namespace kiln::detail
