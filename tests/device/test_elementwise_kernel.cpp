// ElementwiseKernel on a real GPU: the seeds' examples with their known answers, broadcasting,
// layouts, raw parameters, scalars, several outputs, the call forms, and every error a user can
// make. The call-form errors come before any device work, so those tests run without a device.
#include "core/kernels/elementwise/elementwise_variant.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"
#include "tests/support/host_resource.hpp"

#include <kiln/elementwise_kernel.hpp>
#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

namespace {

using kiln::ElementwiseKernel;
using kiln::ndarray;
using Arguments = std::vector<kiln::Argument>;

TEST(ElementwiseKernel, CustomAddOfTheSeed) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel add("T x, T y", "T z", "z = x + y", "custom_add");
    const ndarray x = kiln::array(std::vector<std::int32_t>{1, 2, 3, 4});
    const ndarray y = kiln::array(std::vector<std::int32_t>{10, 12, 14, 16});
    const ndarray z = add({x, y});
    EXPECT_EQ(z.dtype(), kiln::int32);
    EXPECT_EQ(z.get<std::int32_t>(), (std::vector<std::int32_t>{11, 14, 17, 20}));
}

TEST(ElementwiseKernel, SquaredDiffBroadcastsARow) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel squared_diff("float32 x, float32 y", "float32 z",
                                         "z = (x - y) * (x - y)", "squared_diff");
    const ndarray x = kiln::arange(0.0, 10.0, 1.0, kiln::float32).reshape({2, 5});
    const ndarray y = kiln::arange(0.0, 5.0, 1.0, kiln::float32);
    const ndarray z = squared_diff({x, y});
    EXPECT_EQ(z.shape(), (kiln::Shape{2, 5}));
    std::vector<float> want;
    for (int r = 0; r < 2; ++r) {
        for (int c = 0; c < 5; ++c) {
            const float d = static_cast<float>(r * 5 + c) - static_cast<float>(c);
            want.push_back(d * d);
        }
    }
    EXPECT_EQ(z.get<float>(), want);
}

TEST(ElementwiseKernel, ClippedReluAndAScalarConvertedToItsParameterType) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel clipped_relu("T x, T cap", "T y", "y = min(max(x, (T)0), cap)",
                                         "clipped_relu");
    const ndarray x = kiln::array(std::vector<double>{-3, -0.5, 0, 0.5, 2, 7});
    EXPECT_EQ(clipped_relu({x, 1.5}).get<double>(), (std::vector<double>{0, 0, 0, 0.5, 1.5, 1.5}));
    const ElementwiseKernel scale("T x, float32 alpha", "T y", "y = x * alpha", "scale");
    const ndarray f = kiln::array(std::vector<float>{1, 2, 3});
    EXPECT_EQ(scale({f, 0.5}).get<float>(), (std::vector<float>{0.5F, 1.0F, 1.5F}));
    const ElementwiseKernel add8("int8 x, int8 b", "int8 y", "y = x + b", "add8");
    const ndarray small = kiln::zeros({2}, kiln::int8);
    EXPECT_THROW((void)add8({small, 300}), kiln::TypeError) << "300 does not fit int8";
}

TEST(ElementwiseKernel, ComplexSquaredMagnitude) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel magnitude("complex128 z", "float64 m",
                                      "m = z.real() * z.real() + "
                                      "z.imag() * z.imag()",
                                      "squared_magnitude");
    std::vector<std::complex<double>> host;
    host.reserve(1000);
    for (int i = 0; i < 1000; ++i) {
        host.emplace_back(0.5 * i - 100.0, 3.0 - 0.25 * i);
    }
    const auto got = magnitude({kiln::array(host)}).get<double>();
    for (std::size_t i = 0; i < host.size(); ++i) {
        EXPECT_DOUBLE_EQ(got[i], std::norm(host[i]));
    }
}

TEST(ElementwiseKernel, InPlaceKeepsTheDataPointer) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel twice("T x", "T y", "y = x * 2", "twice");
    ndarray a = kiln::arange(5);
    const void* before = a.data();
    const ndarray result = twice.outputs(std::vector<kiln::Argument>{a, a}).front();
    EXPECT_EQ(result.data(), before);
    EXPECT_EQ(a.get<std::int64_t>(), (std::vector<std::int64_t>{0, 2, 4, 6, 8}));
}

TEST(ElementwiseKernel, SeveralOutputsSinCosTan) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel trig("T x", "T s, T c, T t", "s = sin(x); c = cos(x); t = tan(x)",
                                 "sin_cos_tan");
    const ndarray x = kiln::linspace(-1.5, 1.5, 1001);
    const auto out = trig.outputs(std::vector<kiln::Argument>{x});
    ASSERT_EQ(out.size(), 3U);
    const auto s = out[0].get<double>();
    const auto c = out[1].get<double>();
    const auto t = out[2].get<double>();
    for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_NEAR(s[i] * s[i] + c[i] * c[i], 1.0, 1e-14);
        EXPECT_NEAR(t[i], s[i] / c[i], 1e-12 * std::abs(t[i]) + 1e-15);
    }
}

TEST(ElementwiseKernel, NonContiguousInputsAndReduceDimsOff) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = kiln::arange(12).reshape({3, 4});
    const ndarray t = a.transpose();
    const ndarray every_other = kiln::arange(24)[{kiln::Slice{0, std::nullopt, 2}}].reshape({4, 3});
    std::vector<std::int64_t> want;
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 3; ++c) {
            want.push_back((c * 4 + r) + 2 * (r * 3 + c));
        }
    }
    const ElementwiseKernel add("T x, T y", "T z", "z = x + y", "add_strided");
    EXPECT_EQ(add({t, every_other}).get<std::int64_t>(), want);
    const ElementwiseKernel plain("T x, T y", "T z", "z = x + y", "add_plain",
                                  {.reduce_dims = false});
    EXPECT_EQ(plain({t, every_other}).get<std::int64_t>(), want);
}

// Strided calls with enough rows of at least a block's width run a block per row (no division
// per element): broadcast rows, every other plane of a 3-d array (with a parameter whose name
// holds `_o_`), and `i` still the C-order position. A 1-d strided input and a 0-d operand take the
// flat loop.
TEST(ElementwiseKernel, LongRowsOfStridedAndBroadcastInputs) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t rows = 4 * kiln::Device().properties().multiprocessor_count + 3;
    const std::int64_t cols = 300;
    const ndarray m =
        kiln::arange(0.0, static_cast<double>(rows * cols), 1.0).reshape({rows, cols});
    const ndarray row = kiln::arange(0.0, static_cast<double>(cols), 1.0);
    const ElementwiseKernel diff("T x, T y", "T z, int64 at", "z = x - y; at = i", "diff_rows");
    const auto out = diff.outputs(std::vector<kiln::Argument>{m, row});
    const auto z = out[0].get<double>();
    const auto at = out[1].get<std::int64_t>();
    for (std::int64_t k = 0; k < rows * cols; ++k) {
        ASSERT_EQ(z[static_cast<std::size_t>(k)], static_cast<double>(k - k % cols)) << k;
        ASSERT_EQ(at[static_cast<std::size_t>(k)], k);
    }
    // Plane 0 of (rows, 2, cols): x[r, 0, c] = 2 cols r + c.
    const ndarray cube =
        kiln::arange(0.0, static_cast<double>(rows * 2 * cols), 1.0).reshape({rows, 2, cols});
    const ndarray plane = cube[{kiln::Slice{}, kiln::Slice{.step = 2}}];
    const ElementwiseKernel twice("T x_o_y", "T y", "y = x_o_y + x_o_y", "twice_rows");
    const auto y = twice({plane}).get<double>();
    ASSERT_EQ(y.size(), static_cast<std::size_t>(rows * cols));
    for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < cols; ++c) {
            ASSERT_EQ(y[static_cast<std::size_t>(r * cols + c)],
                      2.0 * static_cast<double>(2 * cols * r + c));
        }
    }
    // Every other element of a long vector plus a 0-d array.
    const ndarray v = kiln::arange(0.0, 2e6, 1.0);
    const ndarray half = v[{kiln::Slice{.step = 2}}];
    const ElementwiseKernel add("T x, T y", "T z", "z = x + y", "add_flat");
    const auto sum = add({half, kiln::full({}, 0.5)}).get<double>();
    ASSERT_EQ(sum.size(), 1'000'000U);
    for (std::size_t k = 0; k < sum.size(); ++k) {
        ASSERT_EQ(sum[k], 2.0 * static_cast<double>(k) + 0.5);
    }
}

// Contiguous calls read K const inputs ahead of the operation (K from the widest input's size):
// sizes around K, a grid-stride step and a tail, for 1-, 4-, 8- and 16-byte elements.
TEST(ElementwiseKernel, LoadAheadCoversEveryElementOfEverySize) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel affine("T x, T y", "T z, int64 at", "z = x * 3 - y; at = i", "affine");
    // One grid-stride step of 4-element threads over a grid of 64 blocks per multiprocessor.
    const std::int64_t step =
        std::int64_t{256} * 4 * 64 * kiln::Device().properties().multiprocessor_count;
    const std::vector<std::int64_t> sizes = {1, 3, 5, 1027, step + 1, 1'000'003};
    for (const std::int64_t n : sizes) {
        SCOPED_TRACE(n);
        std::vector<float> x(static_cast<std::size_t>(n));
        std::vector<double> xd(x.size());
        std::vector<std::int8_t> xs(x.size());
        for (std::size_t k = 0; k < x.size(); ++k) {
            x[k] = static_cast<float>(k % 1000);
            xd[k] = static_cast<double>(k);
            xs[k] = static_cast<std::int8_t>(k % 40);
        }
        const auto f = affine.outputs(Arguments{kiln::array(x), kiln::array(x)});
        const auto d = affine.outputs(Arguments{kiln::array(xd), 0.5});
        const auto s = affine.outputs(Arguments{kiln::array(xs), kiln::array(xs)});
        const auto fz = f[0].get<float>();
        const auto dz = d[0].get<double>();
        const auto sz = s[0].get<std::int8_t>();
        const auto at = d[1].get<std::int64_t>();
        for (std::size_t k = 0; k < x.size(); ++k) {
            ASSERT_EQ(fz[k], 2 * x[k]) << k;
            ASSERT_EQ(dz[k], 3 * xd[k] - 0.5) << k;
            ASSERT_EQ(sz[k], static_cast<std::int8_t>(2 * xs[k])) << k;
            ASSERT_EQ(at[k], static_cast<std::int64_t>(k)) << k;
        }
    }
    const ElementwiseKernel magnitude("complex128 z", "float64 m",
                                      "m = z.real() * z.real() + z.imag() * z.imag()",
                                      "squared_magnitude_tail");
    std::vector<std::complex<double>> z;
    z.reserve(70'001);
    for (int k = 0; k < 70'001; ++k) {
        z.emplace_back(0.5 * k, 1.0 - k);
    }
    const auto m = magnitude({kiln::array(z)}).get<double>();
    for (std::size_t k = 0; k < z.size(); ++k) {
        ASSERT_EQ(m[k], std::norm(z[k])) << k;
    }
}

// Outputs and writable inputs stay bound to memory: an output read before it is written, an
// in-place call that writes before it reads (the input must show the write, so nothing is read
// ahead), and a _non_const input written by the operation.
TEST(ElementwiseKernel, LoadAheadKeepsReferenceSemantics) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t n = 100'003;
    const ndarray x = kiln::arange(0.0, static_cast<double>(n), 1.0, kiln::float32);
    ndarray y = kiln::full({n}, 1.0, kiln::float32);
    const ElementwiseKernel accumulate("T x", "T y", "y += x", "accumulate");
    (void)accumulate.outputs(Arguments{x, y});
    ndarray a = x.copy();
    const ElementwiseKernel reset("T x", "T y", "y = 0; y += x + 1", "reset_then_add");
    (void)reset.outputs(Arguments{a, a});
    const ElementwiseKernel swap("T x, _non_const T w", "T z", "z = x + w; w = x", "write_input");
    ndarray w = kiln::full({n}, 2.0, kiln::float32);
    const auto z = swap({x, w}).get<float>();
    const auto got_y = y.get<float>();
    const auto got_a = a.get<float>();
    const auto got_w = w.get<float>();
    for (std::int64_t k = 0; k < n; ++k) {
        const auto at = static_cast<std::size_t>(k);
        const auto v = static_cast<float>(k);
        ASSERT_EQ(got_y[at], v + 1) << k;
        ASSERT_EQ(got_a[at], 1.0F) << k;
        ASSERT_EQ(z[at], v + 2) << k;
        ASSERT_EQ(got_w[at], v) << k;
    }
}

// The tiled loops read a tile's inputs before the operation writes, so an output on an input's
// memory runs untiled: `y = 0; y += x + 1` over one transposed array must see the new y.
TEST(ElementwiseKernel, TransposedInPlaceKeepsReferenceSemantics) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = kiln::arange(0.0, 157.0 * 301.0, 1.0).reshape({157, 301});
    const ElementwiseKernel reset("T x", "T y", "y = 0; y += x + 1", "reset_then_add_tiled");
    (void)reset.outputs(Arguments{a.transpose(), a.transpose()});
    const auto got = a.get<double>();
    for (std::size_t k = 0; k < got.size(); ++k) {
        ASSERT_EQ(got[k], 1.0) << k;
    }
}

// A row broadcast against a matrix runs in row mode with load-ahead: rows not a multiple of K
// blocks wide.
TEST(ElementwiseKernel, RowModeLoadAheadWithRaggedRows) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t rows = 4 * kiln::Device().properties().multiprocessor_count + 1;
    const std::int64_t cols = 1'001;
    const ndarray m = kiln::arange(0.0, static_cast<double>(rows * cols), 1.0, kiln::float32)
                          .reshape({rows, cols});
    const ndarray row = kiln::arange(0.0, static_cast<double>(cols), 1.0, kiln::float32);
    const ElementwiseKernel diff("float32 x, float32 y", "float32 z, int64 at",
                                 "z = (x - y) * (x - y); at = i", "squared_diff_rows");
    const auto out = diff.outputs(Arguments{m, row});
    const auto z = out[0].get<float>();
    const auto at = out[1].get<std::int64_t>();
    for (std::int64_t k = 0; k < rows * cols; ++k) {
        const auto d = static_cast<float>(k - k % cols);
        ASSERT_EQ(z[static_cast<std::size_t>(k)], d * d) << k;
        ASSERT_EQ(at[static_cast<std::size_t>(k)], k) << k;
    }
}

// A transposed input runs tiled through shared memory: shapes not a multiple of the 32-wide
// tile, 4-, 8- and 16-byte elements, and a second input that is not transposed.
TEST(ElementwiseKernel, TransposedInputsRunTiled) {
    KILN_REQUIRE_DEVICE();
    const std::int64_t rows = 70;
    const std::int64_t cols = 101;
    const ndarray a =
        kiln::arange(0.0, static_cast<double>(rows * cols), 1.0).reshape({rows, cols});
    const ndarray b =
        kiln::arange(0.0, static_cast<double>(rows * cols), 1.0).reshape({cols, rows});
    const ElementwiseKernel mix("T x, T y", "T z, int64 at", "z = x * 2 + y; at = i", "mix");
    for (const kiln::DType dtype : {kiln::float32, kiln::float64}) {
        const auto out = mix.outputs(Arguments{a.astype(dtype).transpose(), b.astype(dtype)});
        const auto z = out[0].astype(kiln::float64).get<double>();
        const auto at = out[1].get<std::int64_t>();
        for (std::int64_t r = 0; r < cols; ++r) {
            for (std::int64_t c = 0; c < rows; ++c) {
                const auto k = static_cast<std::size_t>(r * rows + c);
                ASSERT_EQ(z[k], 2.0 * static_cast<double>(c * cols + r) + static_cast<double>(k))
                    << r << " " << c;
                ASSERT_EQ(at[k], static_cast<std::int64_t>(k));
            }
        }
    }
    std::vector<std::complex<double>> host;
    for (std::int64_t k = 0; k < rows * cols; ++k) {
        host.emplace_back(static_cast<double>(k), 1.0);
    }
    const ElementwiseKernel magnitude("complex128 z", "float64 m",
                                      "m = z.real() * z.real() + z.imag() * z.imag()",
                                      "magnitude_tiled");
    const auto m = magnitude({kiln::array(host).reshape({rows, cols}).transpose()}).get<double>();
    for (std::int64_t r = 0; r < cols; ++r) {
        for (std::int64_t c = 0; c < rows; ++c) {
            ASSERT_EQ(m[static_cast<std::size_t>(r * rows + c)],
                      std::norm(host[static_cast<std::size_t>(c * cols + r)]));
        }
    }
}

// Layouts the host backend walks differently (a transposed operand by tiles over blocks of whole
// rows, rows that every operand steps by one item), on shapes that leave partial tiles, partial
// blocks and a three-axis batch, with a zero-size and a one-element call: against host loops.
TEST(ElementwiseKernel, TransposedAndBroadcastLayoutsOfOddShapes) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel affine("T x, T y", "T z", "z = x * 3 - y", "affine");
    const auto expect_affine = [&](const ndarray& x, const ndarray& y) {
        SCOPED_TRACE("shape " + kiln::to_string(x.shape()));
        const auto z = affine({x, y}).get<double>();
        const auto xs = x.copy().get<double>();
        const auto ys = kiln::broadcast_to(y, x.shape()).copy().get<double>();
        ASSERT_EQ(z.size(), xs.size());
        for (std::size_t k = 0; k < z.size(); ++k) {
            ASSERT_EQ(z[k], xs[k] * 3 - ys[k]) << "element " << k;
        }
    };
    const auto counting = [](std::int64_t rows, std::int64_t cols) {
        return kiln::arange(0.0, static_cast<double>(rows * cols), 1.0).reshape({rows, cols});
    };
    // 301 x 157 transposed: blocks of whole rows of 301 and tiles cut short at both edges.
    expect_affine(counting(157, 301).transpose(), counting(301, 157));
    // Both operands transposed, and a three-axis batch of transposed matrices.
    expect_affine(counting(157, 301).transpose(), counting(157, 301).transpose());
    const ndarray batch =
        kiln::arange(0.0, 3.0 * 45 * 37, 1.0).reshape({3, 45, 37}).transpose({0, 2, 1});
    expect_affine(batch, kiln::full({3, 37, 45}, 0.5, kiln::float64));
    // A broadcast row (every operand steps one item along rows), and every other column (not).
    const ndarray row = kiln::arange(0.0, 157.0, 1.0);
    expect_affine(counting(301, 157), row);
    const ndarray every_other = counting(301, 314)[{kiln::Slice{}, kiln::Slice{.step = 2}}];
    expect_affine(every_other, row);
    // Zero elements launch nothing; one element.
    const ndarray none = kiln::zeros({0, 40}, kiln::float64);
    EXPECT_EQ(affine({none.transpose(), none.transpose()}).shape(), (kiln::Shape{40, 0}));
    expect_affine(kiln::full({1, 1}, 2.0, kiln::float64).transpose(),
                  kiln::full({1, 1}, 1.0, kiln::float64));
}

TEST(ElementwiseKernel, RawParametersAndSize) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel reverse("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse");
    const ndarray x = kiln::arange(6);
    ndarray y = kiln::empty({6}, kiln::int64);
    (void)reverse.outputs(std::vector<kiln::Argument>{x, y});
    EXPECT_EQ(y.get<std::int64_t>(), (std::vector<std::int64_t>{5, 4, 3, 2, 1, 0}));
    // A raw view that is not contiguous is indexed in C order over its own shape.
    const ndarray t = kiln::arange(6).reshape({2, 3}).transpose();  // C order: 0 3 1 4 2 5
    ndarray z = kiln::empty({6}, kiln::int64);
    (void)reverse.outputs(std::vector<kiln::Argument>{t, z});
    EXPECT_EQ(z.get<std::int64_t>(), (std::vector<std::int64_t>{5, 2, 4, 1, 3, 0}));

    const ElementwiseKernel iota("", "raw int32 out", "out[i] = (int)i * 3", "iota3");
    ndarray out = kiln::zeros({5}, kiln::int32);
    (void)iota.outputs(std::vector<kiln::Argument>{out}, {.size = 5});
    EXPECT_EQ(out.get<std::int32_t>(), (std::vector<std::int32_t>{0, 3, 6, 9, 12}));
    EXPECT_THROW((void)iota.outputs(std::vector<kiln::Argument>{out}), kiln::Error)
        << "needs size=";
    // Zero elements: nothing runs.
    const ElementwiseKernel add("T x, T y", "T z", "z = x + y", "add_empty");
    EXPECT_EQ(add({kiln::empty({0, 3}), kiln::empty({0, 3})}).shape(), (kiln::Shape{0, 3}));
}

TEST(ElementwiseKernel, PreambleLoopPrepAndAfterLoop) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel k("T x", "T y", "y = cube(x) + offset", "with_preamble",
                              {.preamble = "template <class U> __device__ U cube(U v) { return "
                                           "v * v * v; }",
                               .loop_prep = "const T offset = 1;",
                               .after_loop = "(void)offset;"});
    EXPECT_EQ(k({kiln::arange(4)}).get<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 9, 28}));
    const std::string source = k.source(std::vector<kiln::Argument>{kiln::arange(4)});
    EXPECT_NE(source.find("y = cube(x) + offset"), std::string::npos) << "user text unchanged";
}

TEST(ElementwiseKernel, BadInputIsAClearError) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel add("T x, T y", "T z", "z = x + y", "add_checked");
    const ndarray f = kiln::zeros({3}, kiln::float32);
    const ndarray d = kiln::zeros({3}, kiln::float64);
    EXPECT_THROW((void)add({f}), kiln::TypeError) << "argument count";
    EXPECT_THROW((void)add({f, d}), kiln::TypeError) << "T bound to two dtypes";
    EXPECT_THROW((void)add({f, kiln::zeros({4}, kiln::float32)}), kiln::ShapeError);
    ndarray wrong_shape = kiln::zeros({2}, kiln::float32);
    EXPECT_THROW((void)add.outputs(std::vector<kiln::Argument>{f, f, wrong_shape}),
                 kiln::ShapeError);
    ndarray wrong_dtype = kiln::zeros({3}, kiln::float64);
    EXPECT_THROW((void)add.outputs(std::vector<kiln::Argument>{f, f, wrong_dtype}),
                 kiln::TypeError);
    const ElementwiseKernel unbound("T x", "U y", "y = x", "unbound");
    EXPECT_THROW((void)unbound({f}), kiln::TypeError);
    EXPECT_THROW(ElementwiseKernel("T x", "T y", "y = x", "1bad"), kiln::Error);
    EXPECT_THROW(ElementwiseKernel("T", "T y", "y = 1", "malformed"), kiln::Error);
    EXPECT_THROW(ElementwiseKernel("float33 x", "T y", "y = x", "unknown"), kiln::TypeError);
    EXPECT_THROW(ElementwiseKernel("T i", "T y", "y = i", "reserved"), kiln::Error);
    const ElementwiseKernel broken("T x", "T y", "y = undefined_name", "broken");
    EXPECT_THROW((void)broken({f}), kiln::CompileError);
}

// What a call resolves to is the variant worked out by hand: the source is that variant's source.
TEST(ElementwiseKernel, SourceIsTheCallsVariantAndAllocatesNoOutput) {
    KILN_REQUIRE_DEVICE();
    using kiln::detail::elementwise_source;
    using Kind = kiln::detail::OperandVariant::Kind;
    const kiln::detail::ElementwiseDefinition add_definition("T x, T y", "T z", "z = x + y",
                                                             "add_variant");
    const ElementwiseKernel add("T x, T y", "T z", "z = x + y", "add_variant");
    const auto* const dialect = &kiln::detail::active_kernel_dialect();
    const ndarray a = kiln::arange(12).reshape({3, 4});
    const ndarray row = kiln::arange(4);
    const ndarray t = kiln::arange(6).reshape({2, 3}).transpose();  // a view: C order 0 3 1 4 2 5
    const ndarray reversed = kiln::empty({6}, kiln::int64);
    // Contiguous with a scalar: one contiguous axis.
    EXPECT_EQ(
        add.source(Arguments{a, 1}),
        elementwise_source(
            add_definition,
            {{{Kind::array, kiln::int64}, {Kind::scalar, kiln::int64}, {Kind::array, kiln::int64}},
             1,
             true,
             true,
             dialect}));
    // Transposed inputs and a fresh C-order output share no mergeable axis; nor does a row
    // broadcast over the rows.
    const kiln::detail::ElementwiseVariant strided{
        {{Kind::array, kiln::int64}, {Kind::array, kiln::int64}, {Kind::array, kiln::int64}},
        2,
        false,
        true,
        dialect};
    EXPECT_EQ(add.source(Arguments{a.transpose(), a.transpose()}),
              elementwise_source(add_definition, strided));
    // The missing output is described, not allocated: an allocator that counts sees nothing.
    kiln::test::CountingHostResource counting;
    kiln::set_allocator(&counting);
    const std::string broadcast_row = add.source(Arguments{a, row});
    kiln::set_allocator(nullptr);
    EXPECT_EQ(counting.allocations(), 0U) << "source() allocated the missing output";
    EXPECT_EQ(broadcast_row, elementwise_source(add_definition, strided));
    // A transposed raw input keeps its own two axes; the output is one contiguous axis.
    const ElementwiseKernel reverse("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse");
    const kiln::detail::ElementwiseDefinition reverse_definition(
        "raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse");
    EXPECT_EQ(reverse.source(Arguments{t, reversed}),
              elementwise_source(reverse_definition,
                                 {{{Kind::raw, kiln::int64, false, 2}, {Kind::array, kiln::int64}},
                                  1,
                                  true,
                                  true,
                                  dialect}));
}

TEST(ElementwiseKernel, NoReturnLaunchesAndReturnsNothing) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel twice("T x", "T y", "y = x * 2", "twice_no_return",
                                  {.no_return = true});
    const ndarray x = kiln::arange(4);
    const ndarray y = kiln::zeros({4}, kiln::int64);
    const ndarray none = twice({x, y});
    EXPECT_EQ(none.size(), 0);
    EXPECT_EQ(none.data(), nullptr);
    EXPECT_EQ(y.get<std::int64_t>(), (std::vector<std::int64_t>{0, 2, 4, 6}));
    const ndarray y2 = kiln::zeros({4}, kiln::int64);
    EXPECT_TRUE(twice.outputs(Arguments{kiln::arange(std::int64_t{1}, 5), y2}).empty());
    EXPECT_EQ(y2.get<std::int64_t>(), (std::vector<std::int64_t>{2, 4, 6, 8}));
    // Several outputs, and return_tuple too: operator() launches, as nothing is dropped.
    const ElementwiseKernel around("T x", "T lo, T hi", "lo = x - 1; hi = x + 1", "around",
                                   {.no_return = true, .return_tuple = true});
    const ndarray lo = kiln::zeros({4}, kiln::int64);
    const ndarray hi = kiln::zeros({4}, kiln::int64);
    EXPECT_EQ(around({x, lo, hi}).size(), 0);
    EXPECT_EQ(lo.get<std::int64_t>(), (std::vector<std::int64_t>{-1, 0, 1, 2}));
    EXPECT_EQ(hi.get<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 3, 4}));
}

TEST(ElementwiseKernel, ReturnTupleGivesTheListOfOutputs) {
    KILN_REQUIRE_DEVICE();
    const ElementwiseKernel twice("T x", "T y", "y = x * 2", "twice_tuple", {.return_tuple = true});
    const auto out = twice.outputs(Arguments{kiln::arange(3)});
    ASSERT_EQ(out.size(), 1U);
    EXPECT_EQ(out[0].get<std::int64_t>(), (std::vector<std::int64_t>{0, 2, 4}));
}

// No device needed: operator() refuses before resolving its arguments (a scalar-only call would
// otherwise fail for want of size=).
TEST(ElementwiseKernelCallForm, OperatorRefusesAKernelWhoseResultsAreAList) {
    using kiln::test::expect_error;
    const ElementwiseKernel trig("T x", "T s, T c, T t", "s = sin(x); c = cos(x); t = tan(x)",
                                 "sin_cos_tan");
    expect_error<kiln::TypeError>([&] { (void)trig({1.0}); },
                                  "kiln: ElementwiseKernel 'sin_cos_tan': operator() returns one "
                                  "array but the kernel has 3 outputs; call outputs()");
    const ElementwiseKernel copy("T x", "T y", "y = x", "copy_tuple", {.return_tuple = true});
    expect_error<kiln::TypeError>([&] { (void)copy({1.0}); },
                                  "kiln: ElementwiseKernel 'copy_tuple': operator() returns one "
                                  "array but the kernel has return_tuple set; call outputs()");
}

}  // namespace
