// ElementwiseKernel workloads: the seeds' clipped_relu, squared_diff against a row, complex
// squared magnitude (complex128, complex64, and its float64 twin), x * conj(y) on both complex
// dtypes, vector add and softplus, and one over a transposed input. Each is bound by memory
// bandwidth: the kernel allocates its output from the pool, as a user's call would.
#include "../reference/elementwise.hpp"
#include "../check.hpp"
#include "../inputs.hpp"
#include "../kernels.hpp"
#include "../peak_memory.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <complex>

namespace kiln::bench {

namespace {

Record clipped_relu(const Context& context, const std::string& name, std::int64_t nominal) {
    const std::int64_t n = context.scaled(nominal);
    Record r = make_record(name, "clipped_relu min(max(x, 0), cap), cap 1", "ElementwiseKernel",
                           {n}, "float64", "memory");
    r.kernel = kernels::clipped_relu.json();
    const double cap = 1.0;
    r.params = Json::object({{"cap", cap}});
    r.bytes = 16.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<double>(context, "x", {n}, 1.0, 11);
    r.inputs = {x.spec};
    std::vector<double> want(x.host.size());
    r.kokkos_ms = reference_ms(context, [&] { reference::clipped_relu(x.host, cap, want); });
    if (context.gpu) {
        const auto kernel = kernels::clipped_relu.make();
        ndarray y;
        store(r, time_device(context, [&] { y = kernel({x.device, cap}); }));
        r.check = check_values(y.get<double>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Record squared_diff_row(const Context& context) {
    const std::int64_t rows = context.scaled_side(8192, 2);
    const std::int64_t cols = context.scaled_side(8192, 2);
    Record r = make_record("squared_diff_f32_8192x8192_row",
                           "squared_diff (x - y)^2 of a matrix and a row broadcast against it",
                           "ElementwiseKernel", {rows, cols}, "float32", "memory");
    r.kernel = kernels::squared_diff.json();
    r.bytes = 4.0 * static_cast<double>(2 * rows * cols + cols);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<float>(context, "x", {rows, cols}, 1.0, 21);
    const auto y = normal_input<float>(context, "y", {cols}, 1.0, 22);
    r.inputs = {x.spec, y.spec};
    std::vector<float> want(x.host.size());
    r.kokkos_ms = reference_ms(
        context, [&] { reference::squared_diff_row(x.host, y.host, rows, cols, want); });
    if (context.gpu) {
        const auto kernel = kernels::squared_diff.make();
        ndarray z;
        store(r, time_device(context, [&] { z = kernel({x.device, y.device}); }));
        r.check = check_values(z.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// |z|^2 of complex<T>, T out: 3 * sizeof(T) bytes per element.
template <class T>
Record squared_magnitude(const Context& context, const std::string& name,
                         const ElementwiseDefinition& definition, std::uint64_t seed) {
    const std::int64_t n = context.scaled(10'000'000);
    const DType dtype = dtype_of<std::complex<T>>;
    Record r = make_record(name, std::string(kiln::name(dtype)) + " squared magnitude",
                           "ElementwiseKernel", {n}, std::string(kiln::name(dtype)), "memory");
    r.kernel = definition.json();
    r.bytes = 3.0 * sizeof(T) * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto z = complex_normal_input<T>(context, "z", n, 1.0, seed);
    r.inputs = {z.spec};
    std::vector<T> want(z.host.size());
    r.kokkos_ms = reference_ms(context, [&] { reference::squared_magnitude<T>(z.host, want); });
    if (context.gpu) {
        const auto kernel = definition.make();
        ndarray m;
        store(r, time_device(context, [&] { m = kernel({z.device}); }));
        r.check = check_values(m.get<T>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// squared_magnitude_c128's shape on float64: the parts in two arrays, the same 24 bytes and 3
// flops per element, so that the two rows' host and device times compare complex128 with float64.
Record squared_magnitude_pairs(const Context& context) {
    const std::int64_t n = context.scaled(10'000'000);
    Record r = make_record("squared_magnitude_f64_1e7",
                           "x * x + y * y of two float64 arrays (squared_magnitude_c128's bytes)",
                           "ElementwiseKernel", {n}, "float64", "memory");
    r.kernel = kernels::squared_magnitude_pairs.json();
    r.bytes = 24.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<double>(context, "x", {n}, 1.0, 33);
    const auto y = normal_input<double>(context, "y", {n}, 1.0, 34);
    r.inputs = {x.spec, y.spec};
    std::vector<double> want(x.host.size());
    r.kokkos_ms =
        reference_ms(context, [&] { reference::squared_magnitude_pairs(x.host, y.host, want); });
    if (context.gpu) {
        const auto kernel = kernels::squared_magnitude_pairs.make();
        ndarray m;
        store(r, time_device(context, [&] { m = kernel({x.device, y.device}); }));
        r.check = check_values(m.get<double>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// z = x * conj(y) of two complex<T> arrays: 3 * 2 * sizeof(T) bytes per element.
template <class T>
Record conj_multiply(const Context& context, const std::string& name, std::uint64_t seed) {
    const std::int64_t n = context.scaled(10'000'000);
    const std::string dtype(kiln::name(dtype_of<std::complex<T>>));
    Record r = make_record(name, "conj_multiply z = x * conj(y), " + dtype, "ElementwiseKernel",
                           {n}, dtype, "memory");
    r.kernel = kernels::conj_multiply.json();
    r.bytes = 6.0 * sizeof(T) * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = complex_normal_input<T>(context, "x", n, 1.0, seed);
    const auto y = complex_normal_input<T>(context, "y", n, 1.0, seed + 1);
    r.inputs = {x.spec, y.spec};
    std::vector<std::complex<T>> want(x.host.size());
    r.kokkos_ms = reference_ms(context, [&] { reference::conj_multiply<T>(x.host, y.host, want); });
    if (context.gpu) {
        const auto kernel = kernels::conj_multiply.make();
        ndarray z;
        store(r, time_device(context, [&] { z = kernel({x.device, y.device}); }));
        r.check = check_values(z.get<std::complex<T>>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Record vector_add(const Context& context) {
    const std::int64_t n = context.scaled(100'000'000);
    Record r = make_record("vector_add_i32_1e8", "custom_add z = x + y of two int32 vectors",
                           "ElementwiseKernel", {n}, "int32", "memory");
    r.kernel = kernels::custom_add.json();
    r.bytes = 12.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = integers_input<std::int32_t>(context, "x", {n}, -1'000'000, 1'000'000, 41);
    const auto y = integers_input<std::int32_t>(context, "y", {n}, -1'000'000, 1'000'000, 42);
    r.inputs = {x.spec, y.spec};
    std::vector<std::int32_t> want(x.host.size());
    r.kokkos_ms =
        reference_ms(context, [&] { reference::add<std::int32_t>(x.host, y.host, want); });
    if (context.gpu) {
        const auto kernel = kernels::custom_add.make();
        ndarray z;
        store(r, time_device(context, [&] { z = kernel({x.device, y.device}); }));
        r.check = check_values(z.get<std::int32_t>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Record softplus(const Context& context) {
    const std::int64_t n = context.scaled(100'000'000);
    Record r = make_record("softplus_f32_1e8", "softplus max(x, 0) + log1p(exp(-|x|))",
                           "ElementwiseKernel", {n}, "float32", "memory");
    r.kernel = kernels::softplus.json();
    r.bytes = 8.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<float>(context, "x", {n}, 3.0, 51);
    r.inputs = {x.spec};
    std::vector<float> want(x.host.size());
    r.kokkos_ms = reference_ms(context, [&] { reference::softplus(x.host, want); });
    if (context.gpu) {
        const auto kernel = kernels::softplus.make();
        ndarray y;
        store(r, time_device(context, [&] { y = kernel({x.device}); }));
        r.check = check_values(y.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Record transposed(const Context& context) {
    const std::int64_t rows = context.scaled_side(8192, 2);
    const std::int64_t cols = context.scaled_side(8192, 2);
    Record r = make_record("twice_transposed_f32_8192x8192",
                           "y = x + x on x.T (a non-contiguous input), C-contiguous output",
                           "ElementwiseKernel", {cols, rows}, "float32", "memory");
    r.kernel = kernels::twice.json();
    r.params = Json::object({{"input", "transpose of the (rows, cols) draw"}});
    r.bytes = 8.0 * static_cast<double>(rows * cols);
    const PeakMemory peak(context.gpu);
    const auto x = uniform_input<float>(context, "x", {rows, cols}, 1.0, 61);
    r.inputs = {x.spec};
    std::vector<float> want(x.host.size());
    r.kokkos_ms =
        reference_ms(context, [&] { reference::twice_transposed(x.host, rows, cols, want); });
    if (context.gpu) {
        const auto kernel = kernels::twice.make();
        const ndarray xt = x.device.transpose();
        ndarray y;
        store(r, time_device(context, [&] { y = kernel({xt}); }));
        r.check = check_values(y.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

}  // namespace

std::vector<Workload> elementwise_workloads() {
    return {
        {"clipped_relu_f64_1e7", "clipped_relu, float64, 1e7", false, false,
         [](const Context& c) { return clipped_relu(c, "clipped_relu_f64_1e7", 10'000'000); }},
        {"clipped_relu_f64_1e8", "clipped_relu, float64, 1e8", false, false,
         [](const Context& c) { return clipped_relu(c, "clipped_relu_f64_1e8", 100'000'000); }},
        {"squared_diff_f32_8192x8192_row", "squared_diff against a broadcast row", false, false,
         squared_diff_row},
        {"squared_magnitude_c128_1e7", "complex128 squared magnitude, 1e7", false, false,
         [](const Context& c) {
             return squared_magnitude<double>(c, "squared_magnitude_c128_1e7",
                                              kernels::squared_magnitude, 31);
         }},
        {"squared_magnitude_c64_1e7", "complex64 squared magnitude, 1e7", false, false,
         [](const Context& c) {
             return squared_magnitude<float>(c, "squared_magnitude_c64_1e7",
                                             kernels::squared_magnitude_c64, 32);
         }},
        {"squared_magnitude_f64_1e7", "squared_magnitude_c128's shape on two float64 arrays", false,
         false, squared_magnitude_pairs},
        {"conj_multiply_c128_1e7", "z = x * conj(y), complex128, 1e7", false, false,
         [](const Context& c) { return conj_multiply<double>(c, "conj_multiply_c128_1e7", 35); }},
        {"conj_multiply_c64_1e7", "z = x * conj(y), complex64, 1e7", false, false,
         [](const Context& c) { return conj_multiply<float>(c, "conj_multiply_c64_1e7", 37); }},
        {"vector_add_i32_1e8", "vector add, int32, 1e8", false, false, vector_add},
        {"softplus_f32_1e8", "softplus, float32, 1e8", false, false, softplus},
        {"twice_transposed_f32_8192x8192", "elementwise on a transposed input", false, false,
         transposed},
    };
}

}  // namespace kiln::bench
