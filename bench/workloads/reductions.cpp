// ReductionKernel workloads: the seed's l2norm over everything and along each axis of a square
// matrix, a sum of every element of complex128 and complex64 arrays, and a sum along each axis of
// two skewed shapes (few long rows, many short rows).
#include "../reference/reductions.hpp"
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

Record l2norm_full(const Context& context) {
    const std::int64_t n = context.scaled(100'000'000);
    Record r = make_record("l2norm_full_f64_1e8", "l2norm sqrt(sum(x * x)) over every element",
                           "ReductionKernel", {n}, "float64", "memory");
    r.kernel = kernels::l2norm.json();
    r.bytes = 8.0 * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = normal_input<double>(context, "x", {n}, 1.0, 71);
    r.inputs = {x.spec};
    double want = 0;
    r.kokkos_ms = reference_ms(context, [&] { want = reference::l2norm(x.host); });
    if (context.gpu) {
        const auto kernel = kernels::l2norm.make();
        ndarray y;
        store(r, time_device(context, [&] { y = kernel({x.device}); }));
        r.check = check_values(y.get<double>(), std::vector<double>{want});
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// The sum of every element of a complex<T> array (parts uniform in [0, 1), so the sum is well
// conditioned and float accumulation stays within complex64's tolerance).
template <class T>
Record complex_sum(const Context& context, const std::string& name, std::uint64_t seed) {
    const std::int64_t n = context.scaled(10'000'000);
    const std::string dtype(kiln::name(dtype_of<std::complex<T>>));
    Record r = make_record(name, "sum of every element, " + dtype, "ReductionKernel", {n}, dtype,
                           "memory");
    r.kernel = kernels::sum.json();
    r.bytes = 2.0 * sizeof(T) * static_cast<double>(n);
    const PeakMemory peak(context.gpu);
    const auto x = complex_uniform_input<T>(context, "x", n, 1.0, seed);
    r.inputs = {x.spec};
    std::complex<double> want;
    r.kokkos_ms = reference_ms(context, [&] { want = reference::complex_sum<T>(x.host); });
    if (context.gpu) {
        const auto kernel = kernels::sum.make();
        ndarray y;
        store(r, time_device(context, [&] { y = kernel({x.device}); }));
        r.check = check_values(y.get<std::complex<T>>(),
                               std::vector<std::complex<T>>{std::complex<T>(want)});
        r.peak_bytes = peak.bytes();
    }
    return r;
}

// A reduction of a (rows, cols) float32 matrix along one axis.
struct AxisCase {
    std::string name;
    std::string description;
    const ReductionDefinition* definition;
    std::int64_t rows;
    std::int64_t cols;
    int axis;
    bool normal;  // normal inputs (l2norm), else uniform in [0, 1) (sums)
    std::uint64_t seed;
};

Record axis_reduction(const Context& context, const AxisCase& c) {
    Record r = make_record(c.name, c.description, "ReductionKernel", {c.rows, c.cols}, "float32",
                           "memory");
    r.kernel = c.definition->json();
    r.params = Json::object({{"axis", c.axis}});
    const std::int64_t outputs = c.axis == 0 ? c.cols : c.rows;
    r.bytes = 4.0 * static_cast<double>(c.rows * c.cols + outputs);
    const PeakMemory peak(context.gpu);
    const auto x = c.normal ? normal_input<float>(context, "x", {c.rows, c.cols}, 1.0, c.seed)
                            : uniform_input<float>(context, "x", {c.rows, c.cols}, 1.0, c.seed);
    r.inputs = {x.spec};
    std::vector<float> want;
    r.kokkos_ms = reference_ms(context, [&] {
        want = c.definition == &kernels::l2norm
                   ? reference::l2norm_axis(x.host, c.rows, c.cols, c.axis)
                   : reference::sum_axis(x.host, c.rows, c.cols, c.axis);
    });
    if (context.gpu) {
        const auto kernel = c.definition->make();
        ndarray y;
        store(r, time_device(context, [&] { y = kernel({x.device}, {.axis = c.axis}); }));
        r.check = check_values(y.get<float>(), want);
        r.peak_bytes = peak.bytes();
    }
    return r;
}

Workload axis_workload(const char* name, const char* description,
                       const ReductionDefinition& definition, std::int64_t rows, bool scale_rows,
                       std::int64_t cols, bool scale_cols, int axis, bool normal,
                       std::uint64_t seed) {
    return {name, description, false, false, [=, &definition](const Context& context) {
                // Square shapes scale both sides; skewed ones keep their short side.
                const int scaled_sides = (scale_rows ? 1 : 0) + (scale_cols ? 1 : 0);
                const auto side = [&](std::int64_t n, bool scaled) {
                    return scaled ? context.scaled_side(n, scaled_sides) : n;
                };
                return axis_reduction(context,
                                      {name, description, &definition, side(rows, scale_rows),
                                       side(cols, scale_cols), axis, normal, seed});
            }};
}

}  // namespace

std::vector<Workload> reduction_workloads() {
    return {
        {"l2norm_full_f64_1e8", "l2norm of 1e8 float64 to one value", false, false, l2norm_full},
        {"sum_c128_1e7", "sum of 1e7 complex128 to one value", false, false,
         [](const Context& c) { return complex_sum<double>(c, "sum_c128_1e7", 93); }},
        {"sum_c64_1e7", "sum of 1e7 complex64 to one value", false, false,
         [](const Context& c) { return complex_sum<float>(c, "sum_c64_1e7", 94); }},
        axis_workload("l2norm_axis0_f32_8192x8192", "l2norm along axis 0 (one per column)",
                      kernels::l2norm, 8192, true, 8192, true, 0, true, 81),
        axis_workload("l2norm_axis1_f32_8192x8192", "l2norm along axis 1 (one per row)",
                      kernels::l2norm, 8192, true, 8192, true, 1, true, 81),
        axis_workload("sum_axis0_f32_16x1e7", "sum along axis 0 of 16 long rows", kernels::sum, 16,
                      false, 10'000'000, true, 0, false, 91),
        axis_workload("sum_axis1_f32_16x1e7", "sum along axis 1 of 16 long rows", kernels::sum, 16,
                      false, 10'000'000, true, 1, false, 91),
        axis_workload("sum_axis0_f32_1e7x16", "sum along axis 0 of 1e7 rows of 16", kernels::sum,
                      10'000'000, true, 16, false, 0, false, 92),
        axis_workload("sum_axis1_f32_1e7x16", "sum along axis 1 of 1e7 rows of 16", kernels::sum,
                      10'000'000, true, 16, false, 1, false, 92),
    };
}

}  // namespace kiln::bench
