// matmul and dot on a GPU against host loops: shapes that are not multiples of the tile, every
// dtype kind (float32, float64 and complex through the BLAS when it loads; integers and float16
// through kiln's kernel), batches with broadcasting, 1-D operands, views, `out`, and the errors.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using kiln::ndarray;
using kiln::Shape;

// value(i) = ((i * 37 + salt) % 19 - 9) / 4 (integers: not divided, and unsigned ones not
// shifted): small values, exact in every dtype, whose products sum exactly.
template <class T>
std::vector<T> values(std::int64_t count, int salt) {
    std::vector<T> out(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
        const double v =
            static_cast<double>((i * 37 + salt) % 19 - (std::is_unsigned_v<T> ? 0 : 9));
        if constexpr (std::is_integral_v<T>) {
            out[static_cast<std::size_t>(i)] = static_cast<T>(v);
        } else {
            out[static_cast<std::size_t>(i)] = static_cast<T>(v / 4);
        }
    }
    return out;
}

// Row-major (batch, m, k) x (batch, k, n) on the host, in double or complex<double>.
template <class T, class Acc>
std::vector<Acc> host_matmul(const std::vector<T>& a, const std::vector<T>& b, std::int64_t batch,
                             std::int64_t m, std::int64_t k, std::int64_t n) {
    std::vector<Acc> c(static_cast<std::size_t>(batch * m * n));
    for (std::int64_t s = 0; s < batch; ++s) {
        for (std::int64_t i = 0; i < m; ++i) {
            for (std::int64_t j = 0; j < n; ++j) {
                Acc sum = 0;
                for (std::int64_t p = 0; p < k; ++p) {
                    sum += static_cast<Acc>(a[static_cast<std::size_t>((s * m + i) * k + p)]) *
                           static_cast<Acc>(b[static_cast<std::size_t>((s * k + p) * n + j)]);
                }
                c[static_cast<std::size_t>((s * m + i) * n + j)] = sum;
            }
        }
    }
    return c;
}

template <class T>
void expect_matmul(std::int64_t m, std::int64_t k, std::int64_t n, double tolerance) {
    SCOPED_TRACE(std::string(kiln::name(kiln::dtype_of<T>)) + " " + std::to_string(m) + "x" +
                 std::to_string(k) + "x" + std::to_string(n));
    const auto a = values<T>(m * k, 1);
    const auto b = values<T>(k * n, 5);
    const ndarray c = kiln::matmul(kiln::array(a, Shape{m, k}), kiln::array(b, Shape{k, n}));
    EXPECT_EQ(c.dtype(), kiln::dtype_of<T>);
    EXPECT_EQ(c.shape(), (Shape{m, n}));
    const auto got = c.get<T>();
    const auto want = host_matmul<T, double>(a, b, 1, m, k, n);
    for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_NEAR(static_cast<double>(got[i]), want[i], tolerance * (1 + std::abs(want[i])))
            << "element " << i;
    }
}

TEST(Matmul, EveryKindOfDtypeAgainstAHostLoop) {
    KILN_REQUIRE_DEVICE();
    expect_matmul<double>(70, 33, 129, 1e-14);
    expect_matmul<float>(513, 384, 257, 1e-5);
    expect_matmul<std::int32_t>(70, 33, 129, 0);
    expect_matmul<std::int64_t>(65, 200, 3, 0);
    expect_matmul<std::uint32_t>(5, 7, 9, 0);

    // float16 accumulates in float32, exactly for these values, and rounds once at the end.
    const auto a = values<float>(64 * 64, 2);
    const ndarray h = kiln::array(a, Shape{64, 64}).astype(kiln::float16);
    const ndarray hh = kiln::matmul(h, h);
    EXPECT_EQ(hh.dtype(), kiln::float16);
    const auto want = host_matmul<float, double>(a, a, 1, 64, 64, 64);
    const auto got = hh.astype(kiln::float32).get<float>();
    for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(got[i], static_cast<float>(kiln::half(static_cast<float>(want[i])))) << i;
    }

    using C = std::complex<double>;
    std::vector<C> z(6 * 5);
    std::vector<C> w(5 * 7);
    for (std::size_t i = 0; i < z.size(); ++i) {
        z[i] = C(static_cast<double>(i % 5) - 2, static_cast<double>(i % 3));
    }
    for (std::size_t i = 0; i < w.size(); ++i) {
        w[i] = C(static_cast<double>(i % 4), 1 - static_cast<double>(i % 7));
    }
    const auto zw = host_matmul<C, C>(z, w, 1, 6, 5, 7);
    EXPECT_EQ(kiln::matmul(kiln::array(z, Shape{6, 5}), kiln::array(w, Shape{5, 7})).get<C>(), zw);
    const ndarray single = kiln::matmul(kiln::array(z, Shape{6, 5}).astype(kiln::complex64),
                                        kiln::array(w, Shape{5, 7}).astype(kiln::complex64));
    EXPECT_EQ(single.dtype(), kiln::complex64);
    const auto got64 = single.get<std::complex<float>>();
    for (std::size_t i = 0; i < zw.size(); ++i) {
        EXPECT_EQ(C(got64[i]), zw[i]) << i;  // small integers: exact
    }
}

TEST(Matmul, BatchesBroadcastAndVectors) {
    KILN_REQUIRE_DEVICE();
    // (3, 1, 4, 5) @ (2, 5, 6) -> (3, 2, 4, 6): batch (s, t) multiplies a[s] by b[t].
    const auto a = values<double>(3 * 4 * 5, 3);
    const auto b = values<double>(2 * 5 * 6, 7);
    const ndarray c =
        kiln::matmul(kiln::array(a, Shape{3, 1, 4, 5}), kiln::array(b, Shape{2, 5, 6}));
    EXPECT_EQ(c.shape(), (Shape{3, 2, 4, 6}));
    const auto got = c.get<double>();
    for (std::int64_t s = 0; s < 3; ++s) {
        for (std::int64_t t = 0; t < 2; ++t) {
            const std::vector<double> as(a.begin() + s * 20, a.begin() + (s + 1) * 20);
            const std::vector<double> bs(b.begin() + t * 30, b.begin() + (t + 1) * 30);
            const auto want = host_matmul<double, double>(as, bs, 1, 4, 5, 6);
            const std::vector<double> slice(got.begin() + (s * 2 + t) * 24,
                                            got.begin() + (s * 2 + t + 1) * 24);
            EXPECT_EQ(slice, want) << s << ", " << t;
        }
    }
    // One matrix against a stack, both ways round, in int32 (kiln's kernel).
    const auto m = values<std::int32_t>(4 * 5, 1);
    const auto stack = values<std::int32_t>(3 * 5 * 2, 2);
    const auto by_stack =
        kiln::matmul(kiln::array(m, Shape{4, 5}), kiln::array(stack, Shape{3, 5, 2}));
    std::vector<std::int32_t> repeated;
    for (int s = 0; s < 3; ++s) {
        repeated.insert(repeated.end(), m.begin(), m.end());
    }
    const auto want = host_matmul<std::int32_t, double>(repeated, stack, 3, 4, 5, 2);
    const auto got_stack = by_stack.get<std::int32_t>();
    EXPECT_EQ(std::vector<double>(got_stack.begin(), got_stack.end()), want);

    // 1-D operands: their axis leaves the result.
    const ndarray v = kiln::array(std::vector<double>{1, 2, 3});
    const ndarray mat = kiln::array(std::vector<double>{1, 0, 2, -1, 3, 1}, Shape{3, 2});
    EXPECT_EQ(kiln::matmul(v, v).ndim(), 0);
    EXPECT_EQ(kiln::matmul(v, v).get<double>(), (std::vector<double>{14}));
    EXPECT_EQ(kiln::matmul(v, mat).get<double>(), (std::vector<double>{14, 1}));
    EXPECT_EQ(kiln::matmul(mat.transpose(), v).get<double>(), (std::vector<double>{14, 1}));
    // A transposed view multiplies as its values: mat^T mat = [[14, 1], [1, 2]].
    EXPECT_EQ(kiln::matmul(mat.transpose(), mat).get<double>(), (std::vector<double>{14, 1, 1, 2}));
}

TEST(Matmul, DtypesOutAndEmptyOperands) {
    KILN_REQUIRE_DEVICE();
    const ndarray i = kiln::array(std::vector<std::int32_t>{1, 2, 3, 4}, Shape{2, 2});
    const ndarray f = kiln::array(std::vector<float>{1, 0, 0, 1}, Shape{2, 2});
    EXPECT_EQ(kiln::matmul(i, f).dtype(), kiln::float64);  // int32 and float32 promote so
    EXPECT_EQ(kiln::matmul(i, f).get<double>(), (std::vector<double>{1, 2, 3, 4}));
    EXPECT_EQ(kiln::matmul(i, i, {.dtype = kiln::float32}).get<float>(),
              (std::vector<float>{7, 10, 15, 22}));

    ndarray out = kiln::zeros({2, 2}, kiln::float64);
    const ndarray written = kiln::matmul(f, f, {.out = out});
    EXPECT_EQ(written.data(), out.data());
    EXPECT_EQ(out.get<double>(), (std::vector<double>{1, 0, 0, 1}));
    ndarray wide = kiln::zeros({2, 4});
    (void)kiln::matmul(i, i, {.out = wide[{kiln::Slice{}, kiln::Slice{0, 4, 2}}]});
    EXPECT_EQ(wide.get<double>(), (std::vector<double>{7, 0, 10, 0, 15, 0, 22, 0}));

    // Into one of its own operands: every element is computed from the operands as they were.
    ndarray square = kiln::array(std::vector<double>{1, 2, 3, 4}, Shape{2, 2});
    (void)kiln::matmul(square, square, {.out = square});
    EXPECT_EQ(square.get<double>(), (std::vector<double>{7, 10, 15, 22}));
    ndarray left = kiln::array(std::vector<double>{1, 2, 3, 4}, Shape{2, 2});
    (void)kiln::dot(left, f.astype(kiln::float64) * 2.0, {.out = left});
    EXPECT_EQ(left.get<double>(), (std::vector<double>{2, 4, 6, 8}));

    EXPECT_EQ(kiln::matmul(kiln::ones({3, 0}), kiln::ones({0, 2})).get<double>(),
              (std::vector<double>(6, 0.0)));
    EXPECT_EQ(kiln::matmul(kiln::ones({0, 4}), kiln::ones({4, 2})).shape(), (Shape{0, 2}));
}

TEST(Matmul, DotSumsOverTheLastAndSecondToLastAxes) {
    KILN_REQUIRE_DEVICE();
    const ndarray v = kiln::array(std::vector<double>{1, 2, 3});
    EXPECT_EQ(kiln::dot(v, v).get<double>(), (std::vector<double>{14}));
    EXPECT_EQ(kiln::dot(v, kiln::full({}, 2.0)).get<double>(), (std::vector<double>{2, 4, 6}));
    // (2, 3, 4) . (5, 4, 6) -> (2, 3, 5, 6): dot[i, j, s, l] = sum_p a[i, j, p] b[s, p, l].
    const auto a = values<double>(2 * 3 * 4, 4);
    const auto b = values<double>(5 * 4 * 6, 9);
    const ndarray d = kiln::dot(kiln::array(a, Shape{2, 3, 4}), kiln::array(b, Shape{5, 4, 6}));
    EXPECT_EQ(d.shape(), (Shape{2, 3, 5, 6}));
    const auto got = d.get<double>();
    for (std::int64_t r = 0; r < 6; ++r) {
        for (std::int64_t s = 0; s < 5; ++s) {
            for (std::int64_t l = 0; l < 6; ++l) {
                double sum = 0;
                for (std::int64_t p = 0; p < 4; ++p) {
                    sum += a[static_cast<std::size_t>(r * 4 + p)] *
                           b[static_cast<std::size_t>((s * 4 + p) * 6 + l)];
                }
                ASSERT_EQ(got[static_cast<std::size_t>((r * 5 + s) * 6 + l)], sum);
            }
        }
    }
}

TEST(Matmul, BadOperandsAreClearErrors) {
    KILN_REQUIRE_DEVICE();
    const ndarray m = kiln::zeros({2, 3});
    kiln::test::expect_error<kiln::ValueError>(
        [&] { (void)kiln::matmul(m, m); },
        "kiln: matmul: operand 0 has 3 columns and operand 1 has 2 rows; they must be equal");
    EXPECT_THROW((void)kiln::matmul(kiln::full({}, 1.0), m), kiln::ValueError);
    kiln::test::expect_error<kiln::ShapeError>(
        [&] {
            (void)kiln::matmul(kiln::zeros({2, 2, 3}), kiln::zeros({3, 3, 2}));
        },
        "kiln: matmul: the batch axes of shapes (2, 2, 3) and (3, 3, 2) do not broadcast");
    kiln::test::expect_error<kiln::TypeError>(
        [&] {
            (void)kiln::matmul(kiln::zeros({2, 2}, kiln::bool_), kiln::zeros({2, 2}, kiln::bool_));
        },
        "kiln: matmul: bool matrices are not supported; cast them to an integer dtype");
    kiln::test::expect_error<kiln::ShapeError>(
        [&] {
            (void)kiln::matmul(m, m.transpose(), {.out = kiln::zeros({3, 3})});
        },
        "kiln: matmul: out has shape (3, 3); the result's shape is (2, 2)");
    EXPECT_THROW((void)kiln::dot(kiln::zeros({2, 3}), kiln::zeros({4, 2, 5})), kiln::ValueError);
}

}  // namespace
