// ReductionKernel against Kokkos on the host, over a grid of dtypes x layouts (contiguous,
// strided, transposed, broadcast, 0-d, empty) x axes (all, 0, -1, a tuple, keepdims). Values are
// small integers, so every dtype's sums are exact and compared exactly.
#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace {

class KokkosEnvironment : public testing::Environment {
public:
    void SetUp() override { Kokkos::initialize(); }
    void TearDown() override { Kokkos::finalize(); }
};

const auto* const environment = testing::AddGlobalTestEnvironment(new KokkosEnvironment);

using Space = Kokkos::DefaultHostExecutionSpace;
using kiln::ndarray;
using kiln::Shape;

// An input as kiln sees it (a device view) and as the reference sees it (values in C order).
struct Input {
    std::string layout;
    ndarray device;
    Shape shape;
    std::vector<double> values;
};

double base_value(std::int64_t i, std::int64_t j, std::int64_t k) {
    return static_cast<double>((i * 31 + j * 7 + k * 3) % 11) - 5;
}

std::vector<Input> inputs(kiln::DType dtype) {
    const Shape base_shape{4, 6, 5};
    std::vector<double> base;
    for (std::int64_t i = 0; i < 4; ++i) {
        for (std::int64_t j = 0; j < 6; ++j) {
            for (std::int64_t k = 0; k < 5; ++k) {
                base.push_back(base_value(i, j, k));
            }
        }
    }
    const ndarray b = kiln::array(base, base_shape).astype(dtype);
    std::vector<Input> all;
    all.push_back({"contiguous", b, base_shape, base});

    std::vector<double> strided;
    for (std::int64_t i = 0; i < 4; ++i) {
        for (std::int64_t j = 0; j < 6; j += 2) {
            for (std::int64_t k = 0; k < 5; ++k) {
                strided.push_back(base_value(i, j, k));
            }
        }
    }
    all.push_back({"strided", b[{kiln::Slice{}, kiln::Slice{.step = 2}}], {4, 3, 5}, strided});

    std::vector<double> transposed;
    for (std::int64_t k = 0; k < 5; ++k) {
        for (std::int64_t j = 0; j < 6; ++j) {
            for (std::int64_t i = 0; i < 4; ++i) {
                transposed.push_back(base_value(i, j, k));
            }
        }
    }
    all.push_back({"transposed", b.transpose(), {5, 6, 4}, transposed});

    const std::vector<double> row{3, -1, 4, -1, 5};
    std::vector<double> broadcast;
    for (int copy = 0; copy < 4 * 6; ++copy) {
        broadcast.insert(broadcast.end(), row.begin(), row.end());
    }
    all.push_back({"broadcast", kiln::broadcast_to(kiln::array(row).astype(dtype), base_shape),
                   base_shape, broadcast});
    all.push_back({"0-d", kiln::full({}, -4, dtype), {}, {-4}});
    all.push_back({"empty", kiln::zeros({4, 0, 5}, dtype), {4, 0, 5}, {}});
    return all;
}

struct Axes {
    std::string name;
    kiln::Axis axis;
    std::vector<int> axes;  // empty: all
    bool keepdims = false;
};

// Kokkos reference of sum(x * x + 1) over `reduced` axes, one value per kept position (C order).
std::vector<double> reference(const Input& in, const std::vector<bool>& reduced) {
    const std::size_t ndim = in.shape.size();
    std::int64_t kept_count = 1;
    std::int64_t reduced_count = 1;
    for (std::size_t a = 0; a < ndim; ++a) {
        (reduced[a] ? reduced_count : kept_count) *= in.shape[a];
    }
    Kokkos::View<double*, Space> out("out", static_cast<std::size_t>(kept_count));
    const Shape shape = in.shape;
    const std::vector<double>& values = in.values;
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, kept_count), [&](std::int64_t o) {
        double acc = 0;
        for (std::int64_t r = 0; r < reduced_count; ++r) {
            // Unravel o over the kept axes and r over the reduced ones into a C-order index.
            std::int64_t ko = o;
            std::int64_t kr = r;
            std::int64_t index = 0;
            std::int64_t stride = 1;
            for (std::size_t a = ndim; a-- > 0;) {
                std::int64_t& rest = reduced[a] ? kr : ko;
                index += (rest % shape[a]) * stride;
                rest /= shape[a];
                stride *= shape[a];
            }
            const double x = values[static_cast<std::size_t>(index)];
            acc += x * x + 1;
        }
        out(static_cast<std::size_t>(o)) = acc;
    });
    Kokkos::fence();
    return {out.data(), out.data() + kept_count};
}

std::vector<double> as_doubles(const ndarray& a) {
    return a.astype(kiln::float64).get<double>();
}

TEST(ReductionKernelReference, GridOfDtypesLayoutsAndAxesMatchesKokkos) {
    KILN_REQUIRE_DEVICE();
    const kiln::ReductionKernel sum_sq("T x", "T y", "x * x + T(1)", "a + b", "y = a", "0",
                                       "sum_of_squares_plus_one");
    const std::vector<Axes> grid{{"all", {}, {}, false},
                                 {"axis 0", 0, {0}, false},
                                 {"axis -1", -1, {-1}, false},
                                 {"axes (0, 2)", {0, 2}, {0, 2}, false},
                                 {"axis 1 keepdims", 1, {1}, true}};
    int compared = 0;
    for (const auto dtype : {kiln::int32, kiln::int64, kiln::float32, kiln::float64}) {
        for (const auto& in : inputs(dtype)) {
            for (const auto& axes : grid) {
                const auto ndim = static_cast<int>(in.shape.size());
                if (ndim == 0 && !axes.axes.empty()) {
                    continue;  // a 0-d input has no axis 0
                }
                SCOPED_TRACE(std::string(kiln::name(dtype)) + " " + in.layout + " " + axes.name);
                std::vector<bool> reduced(in.shape.size(), axes.axes.empty());
                for (const int a : axes.axes) {
                    reduced[static_cast<std::size_t>(a < 0 ? a + ndim : a)] = true;
                }
                const ndarray y =
                    sum_sq({in.device}, {.axis = axes.axis, .keepdims = axes.keepdims});
                Shape want_shape;
                for (std::size_t a = 0; a < in.shape.size(); ++a) {
                    if (!reduced[a]) {
                        want_shape.push_back(in.shape[a]);
                    } else if (axes.keepdims) {
                        want_shape.push_back(1);
                    }
                }
                EXPECT_EQ(y.shape(), want_shape);
                EXPECT_EQ(y.dtype(), dtype);
                EXPECT_EQ(as_doubles(y), reference(in, reduced));
                ++compared;
            }
        }
    }
    EXPECT_EQ(compared, 4 * (5 * 5 + 1));
}

}  // namespace
