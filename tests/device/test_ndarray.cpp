// ndarray on a real GPU: transfers of every dtype, views, conversions, creation, external memory
// and DLPack. Expected values are computed on the host from the same inputs.
#include "tests/support/backend_under_test.hpp"
#include "tests/support/expect_error.hpp"

#include <kiln/dlpack.hpp>
#include <kiln/kiln.hpp>

#include <dlpack/dlpack.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

namespace {

using kiln::ndarray;
using kiln::Shape;
using kiln::Slice;

using Elements = std::tuple<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                            std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, kiln::half,
                            float, double, std::complex<float>, std::complex<double>>;

// A value of T for index i (small integers: exact in every element type).
template <class T>
T value_at(int i) {
    const int v = (i * 7 + 3) % 11;
    if constexpr (std::is_same_v<T, bool>) {
        return v % 2 == 1;
    } else if constexpr (std::is_same_v<T, kiln::half>) {
        return kiln::half(static_cast<float>(v) - 4.0F);
    } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                         std::is_same_v<T, std::complex<double>>) {
        return T(v, -v);
    } else if constexpr (std::is_signed_v<T>) {
        return static_cast<T>(v - 4);
    } else {
        return static_cast<T>(v);
    }
}

template <class T>
std::vector<T> values(int n) {
    std::vector<T> out;
    for (int i = 0; i < n; ++i) {
        out.push_back(value_at<T>(i));
    }
    return out;
}

// Host conversion with NumPy's meaning, the reference for astype.
template <class To, class From>
To convert(const From& v) {
    if constexpr (std::is_same_v<To, bool>) {
        if constexpr (std::is_same_v<From, kiln::half>) {
            return static_cast<float>(v) != 0.0F;
        } else {
            return v != From{};
        }
    } else if constexpr (std::is_same_v<From, std::complex<float>> ||
                         std::is_same_v<From, std::complex<double>>) {
        if constexpr (std::is_same_v<To, std::complex<float>> ||
                      std::is_same_v<To, std::complex<double>>) {
            return To(v);
        } else {
            return convert<To>(v.real());
        }
    } else if constexpr (std::is_same_v<From, kiln::half>) {
        return convert<To>(static_cast<float>(v));
    } else if constexpr (std::is_same_v<To, kiln::half>) {
        return kiln::half(static_cast<float>(v));
    } else if constexpr (std::is_same_v<To, std::complex<float>> ||
                         std::is_same_v<To, std::complex<double>>) {
        return To(static_cast<typename To::value_type>(v), 0);
    } else {
        return static_cast<To>(v);
    }
}

template <class To, class From>
bool negative_to_unsigned(const From& v) {
    if constexpr (std::is_unsigned_v<To> && !std::is_same_v<To, bool> &&
                  (std::is_floating_point_v<From> || std::is_same_v<From, kiln::half>)) {
        return static_cast<double>(v) < 0.0;
    } else {
        return false;
    }
}

template <class T>
bool same(const T& a, const T& b) {
    if constexpr (std::is_same_v<T, kiln::half>) {
        return a.bits == b.bits;
    } else {
        return a == b;
    }
}

template <class T>
void expect_equal(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    int mismatches = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        mismatches += same(got[i], want[i]) ? 0 : 1;
    }
    EXPECT_EQ(mismatches, 0) << what << " (" << kiln::name(kiln::dtype_of<T>) << ")";
}

TEST(Array, EveryDtypeRoundTripsSynchronouslyAndAsynchronously) {
    KILN_REQUIRE_DEVICE();
    kiln::Stream stream;
    std::apply(
        [&](auto... tag) {
            (
                [&] {
                    using T = decltype(tag);
                    const auto host = values<T>(1001);
                    const ndarray a = kiln::array(host);
                    EXPECT_EQ(a.dtype(), kiln::dtype_of<T>);
                    expect_equal(a.get<T>(), host, "synchronous");
                    // Plain arrays: std::vector<bool> cannot be viewed as a span.
                    const auto in = std::make_unique<T[]>(host.size());
                    std::copy(host.begin(), host.end(), in.get());
                    const ndarray b = kiln::array(std::span<const T>(in.get(), host.size()),
                                                  Shape{7, 11, 13}, stream);
                    const auto out = std::make_unique<T[]>(host.size());
                    b.get(std::span<T>(out.get(), host.size()), stream);
                    stream.synchronize();
                    const std::vector<T> back(out.get(), out.get() + host.size());
                    expect_equal(back, host, "asynchronous");
                }(),
                ...);
        },
        Elements{});
}

// Past 16 MiB transfers go in chunks copied by several host threads; every byte must arrive.
TEST(Array, LargeTransfersRoundTripThroughTheChunkedPath) {
    KILN_REQUIRE_DEVICE();
    const std::size_t n = 10'000'019;  // not a multiple of the chunk or the thread shares
    std::vector<float> host(n);
    for (std::size_t i = 0; i < n; ++i) {
        host[i] = static_cast<float>(i % 65536) * 0.5F;
    }
    ndarray a = kiln::empty({static_cast<std::int64_t>(n)}, kiln::float32);
    a.set(std::span<const float>(host));
    EXPECT_EQ(a.get<float>(), host);

    kiln::Stream stream;
    std::vector<float> reversed(host.rbegin(), host.rend());
    a.set(std::span<const float>(reversed), stream);
    std::fill(reversed.begin(), reversed.end(), -1.0F);  // the caller may reuse it at once
    std::vector<float> back(n);
    stream.synchronize();
    a.get(std::span<float>(back));
    EXPECT_TRUE(std::equal(back.begin(), back.end(), host.rbegin()));
}

// A large synchronous upload on the per-thread default stream, queued behind other work on it.
TEST(Array, ChunkedUploadOnThePerThreadStreamKeepsStreamOrder) {
    KILN_REQUIRE_DEVICE();
    const kiln::StreamGuard on(kiln::per_thread_stream());
    const std::int64_t n = 64 << 20;  // 256 MiB of float32: many chunks, several workers
    ndarray a = kiln::empty({n}, kiln::float32);
    a.fill(7.0F);
    std::vector<float> host(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < host.size(); ++i) {
        host[i] = static_cast<float>(i % 1024);
    }
    a.set(std::span<const float>(host));
    EXPECT_EQ(a.get<float>(), host);
}

// a.transpose / slices of a 3-d array against the same index arithmetic on the host.
// Copies share the shape and strides, which never change: a copy keeps its own when the original
// is assigned another array, and a moved-from array keeps them too (ndarray.hpp).
TEST(Array, CopiesAndMovedFromArraysKeepTheirShape) {
    KILN_REQUIRE_DEVICE();
    ndarray a = kiln::arange(0, 6, 1, kiln::float32).reshape({2, 3});
    ndarray copy = a;
    const Shape& shape = copy.shape();
    a = kiln::zeros({4}, kiln::float64);
    EXPECT_EQ(shape, (Shape{2, 3}));
    EXPECT_EQ(copy.strides(), (kiln::Strides{12, 4}));
    EXPECT_EQ(copy.get<float>()[5], 5.0F);
    EXPECT_EQ(a.shape(), (Shape{4}));
    ndarray taken = std::move(a);
    EXPECT_EQ(taken.shape(), (Shape{4}));
    EXPECT_EQ(a.shape(), (Shape{4}));
    EXPECT_EQ(a.strides(), (kiln::Strides{8}));
    EXPECT_EQ(a.memory(), nullptr);
    a = std::move(copy);
    EXPECT_EQ(a.shape(), (Shape{2, 3}));
    EXPECT_EQ(a.get<float>()[4], 4.0F);
}

TEST(Array, ViewsAndNonContiguousCopies) {
    KILN_REQUIRE_DEVICE();
    std::vector<double> host(2 * 3 * 4);
    std::iota(host.begin(), host.end(), 0.0);
    const ndarray a = kiln::array(host, Shape{2, 3, 4});
    auto at = [&](int i, int j, int k) { return host[(i * 3 + j) * 4 + k]; };

    const ndarray t = a.transpose({2, 0, 1});
    EXPECT_EQ(t.shape(), (Shape{4, 2, 3}));
    EXPECT_FALSE(t.c_contiguous());
    std::vector<double> want;
    for (int k = 0; k < 4; ++k) {
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 3; ++j) {
                want.push_back(at(i, j, k));
            }
        }
    }
    EXPECT_EQ(t.get<double>(), want);

    const ndarray s = a[{1, Slice{std::nullopt, std::nullopt, -1}, Slice{1, std::nullopt, 2}}];
    EXPECT_EQ(s.shape(), (Shape{3, 2}));
    want.clear();
    for (int j = 2; j >= 0; --j) {
        for (int k = 1; k < 4; k += 2) {
            want.push_back(at(1, j, k));
        }
    }
    EXPECT_EQ(s.get<double>(), want);
    EXPECT_EQ(s.copy().get<double>(), want);
    EXPECT_TRUE(s.copy().c_contiguous());
    EXPECT_EQ(s.data(), static_cast<const std::byte*>(a.data()) + (12 + 8 + 1) * 8);

    // reshape of a non-contiguous view copies; of a contiguous one it is a view.
    const ndarray flat = t.reshape({8, 3});
    EXPECT_NE(flat.data(), t.data()) << "a non-contiguous reshape must copy";
    EXPECT_EQ(flat.get<double>(), t.get<double>());
    EXPECT_EQ(a.reshape({6, -1}).data(), a.data());

    const ndarray row = kiln::array(std::vector<double>{10, 20, 30, 40});
    const ndarray wide = kiln::broadcast_to(row, {3, 4});
    EXPECT_EQ(wide.strides(), (kiln::Strides{0, 8}));
    EXPECT_EQ(wide.get<double>(),
              (std::vector<double>{10, 20, 30, 40, 10, 20, 30, 40, 10, 20, 30, 40}));
    EXPECT_EQ(kiln::expand_dims(row, {0}).squeeze().shape(), (Shape{4}));
}

TEST(Array, SetIntoAStridedView) {
    KILN_REQUIRE_DEVICE();
    ndarray b = kiln::zeros({4, 6}, kiln::int32);
    ndarray every_other = b[{Slice{}, Slice{0, std::nullopt, 2}}];
    std::vector<std::int32_t> in(12);
    std::iota(in.begin(), in.end(), 1);
    every_other.set(std::span<const std::int32_t>(in));
    std::vector<std::int32_t> want(24, 0);
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 3; ++j) {
            want[i * 6 + j * 2] = in[i * 3 + j];
        }
    }
    EXPECT_EQ(b.get<std::int32_t>(), want);
}

// Every dtype to every dtype, against host conversions with NumPy's meaning.
TEST(Array, AstypeBetweenEveryPairOfDtypes) {
    KILN_REQUIRE_DEVICE();
    std::apply(
        [&](auto... from) {
            (
                [&] {
                    using From = decltype(from);
                    const auto host = values<From>(37);
                    const ndarray a = kiln::array(host);
                    std::apply(
                        [&](auto... to) {
                            (
                                [&] {
                                    using To = decltype(to);
                                    const auto got =
                                        a.astype(kiln::dtype_of<To>).template get<To>();
                                    std::vector<To> want;
                                    for (std::size_t i = 0; i < host.size(); ++i) {
                                        // A negative float to an unsigned type is undefined in
                                        // C++ and NumPy alike; such elements are not compared.
                                        want.push_back(negative_to_unsigned<To>(host[i])
                                                           ? got[i]
                                                           : convert<To>(host[i]));
                                    }
                                    expect_equal(got, want,
                                                 kiln::name(kiln::dtype_of<From>).data());
                                }(),
                                ...);
                        },
                        Elements{});
                }(),
                ...);
        },
        Elements{});
}

TEST(Array, CreationFunctions) {
    KILN_REQUIRE_DEVICE();
    EXPECT_EQ(kiln::zeros({3}, kiln::float32).get<float>(), (std::vector<float>{0, 0, 0}));
    EXPECT_EQ(kiln::ones({2, 2}, kiln::int64).get<std::int64_t>(),
              (std::vector<std::int64_t>{1, 1, 1, 1}));
    EXPECT_EQ(kiln::full({2}, std::complex<double>(1, -2)).get<std::complex<double>>(),
              (std::vector<std::complex<double>>{{1, -2}, {1, -2}}));
    EXPECT_EQ(kiln::full({3}, 7).dtype(), kiln::int32);
    EXPECT_EQ(kiln::arange(5).get<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(kiln::arange(std::int64_t{10}, 0, -3).get<std::int64_t>(),
              (std::vector<std::int64_t>{10, 7, 4, 1}));
    EXPECT_EQ(kiln::arange(0.0, 1.0, 0.25).get<double>(),
              (std::vector<double>{0.0, 0.25, 0.5, 0.75}));
    EXPECT_EQ(kiln::linspace(0.0, 1.0, 5).get<double>(),
              (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
    EXPECT_EQ(kiln::linspace(0.0, 1.0, 4, false).get<double>(),
              (std::vector<double>{0.0, 0.25, 0.5, 0.75}));
    // NumPy rounds integer linspace down: np.linspace(0, 10, 4, dtype=int) == [0, 3, 6, 10].
    EXPECT_EQ(kiln::linspace(0.0, 10.0, 4, true, kiln::int32).get<std::int32_t>(),
              (std::vector<std::int32_t>{0, 3, 6, 10}));

    ndarray a = kiln::zeros({3, 4}, kiln::uint8);
    a[{Slice{}, 1}].fill(9);
    EXPECT_EQ(a.get<std::uint8_t>(),
              (std::vector<std::uint8_t>{0, 9, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0}));
    EXPECT_EQ(kiln::zeros_like(a).dtype(), kiln::uint8);
    EXPECT_EQ(kiln::full_like(a, 2.5, kiln::float16).get<kiln::half>()[0].bits,
              kiln::half(2.5F).bits);
    EXPECT_EQ(kiln::empty({0, 3}).size(), 0);
    EXPECT_TRUE(kiln::empty({0, 3}).get<double>().empty());
}

// NumPy's rule for arange's dtype (numpy.arange's documentation: inferred from the arguments),
// for every C++ integer type and for mixed integer and floating-point arguments.
TEST(Array, ArangeTakesAnyNumberTypeAsNumPyDoes) {
    KILN_REQUIRE_DEVICE();
    std::vector<std::int64_t> two_to_22(20);
    std::iota(two_to_22.begin(), two_to_22.end(), 2);
    const ndarray ints = kiln::arange(2, 22);
    EXPECT_EQ(ints.dtype(), kiln::int64);
    EXPECT_EQ(ints.get<std::int64_t>(), two_to_22);
    EXPECT_EQ(kiln::arange(0, 10, 2).get<std::int64_t>(),
              (std::vector<std::int64_t>{0, 2, 4, 6, 8}));
    EXPECT_EQ(kiln::arange(3, 0, -1).get<std::int64_t>(), (std::vector<std::int64_t>{3, 2, 1}));
    EXPECT_EQ(kiln::arange(0L, 10L, 3L).get<std::int64_t>(),
              (std::vector<std::int64_t>{0, 3, 6, 9}));
    EXPECT_EQ(kiln::arange(1U, 7U, 2U).get<std::int64_t>(), (std::vector<std::int64_t>{1, 3, 5}));
    EXPECT_EQ(kiln::arange(std::uint8_t{4}).get<std::int64_t>(),
              (std::vector<std::int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(kiln::arange(short{1}, 4L, 1U).get<std::int64_t>(),
              (std::vector<std::int64_t>{1, 2, 3}));
    // Any floating-point argument makes the whole range float64.
    const ndarray mixed = kiln::arange(0, 1, 0.25);
    EXPECT_EQ(mixed.dtype(), kiln::float64);
    EXPECT_EQ(mixed.get<double>(), (std::vector<double>{0.0, 0.25, 0.5, 0.75}));
    EXPECT_EQ(kiln::arange(1, 2.5).get<double>(), (std::vector<double>{1.0, 2.0}));
    EXPECT_EQ(kiln::arange(3.0).get<double>(), (std::vector<double>{0.0, 1.0, 2.0}));
    EXPECT_EQ(kiln::arange(0.5F, 2).get<double>(), (std::vector<double>{0.5, 1.5}));
    // A given dtype wins.
    EXPECT_EQ(kiln::arange(0, 6, 2, kiln::int32).get<std::int32_t>(),
              (std::vector<std::int32_t>{0, 2, 4}));
    // An unsigned value beyond int64 is refused, not wrapped to a negative start.
    try {
        (void)kiln::arange(std::numeric_limits<std::uint64_t>::max(), std::uint64_t{0});
        ADD_FAILURE() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        EXPECT_NE(std::string(e.what()).find("arange: 18446744073709551615 does not fit"),
                  std::string::npos)
            << e.what();
    }
}

// CuPy's item() (cupy_tests/core_tests/test_ndarray_conversion.py, TestNdarrayItem and
// TestNdarrayItemRaise): the one element of a size-1 array of any shape; other sizes are refused.
TEST(Array, ItemIsTheOneElement) {
    KILN_REQUIRE_DEVICE();
    EXPECT_EQ(kiln::sum(kiln::arange(5)).item<std::int64_t>(), 10);
    EXPECT_EQ(kiln::full({1, 1, 1}, 2.5).item<double>(), 2.5);
    EXPECT_EQ(kiln::full({1}, 7, kiln::uint8).item<std::uint8_t>(), 7);
    EXPECT_TRUE(kiln::array(std::vector<bool>{true}).item<bool>());
    EXPECT_EQ(kiln::arange(6)[{4}].item<std::int64_t>(), 4);
    kiln::test::expect_error<kiln::ValueError>(
        [] {
            (void)kiln::arange(6).reshape({2, 3}).item<std::int64_t>();
        },
        "kiln: item: the array has 6 elements (shape (2, 3)); only an array of one element "
        "converts to a scalar");
    EXPECT_THROW((void)kiln::empty({0}).item<double>(), kiln::ValueError);
    kiln::test::expect_error<kiln::TypeError>([] { (void)kiln::full({1}, 2.5).item<float>(); },
                                              "kiln: item: the array holds float64, not float32");
}

TEST(Array, BadInputIsAClearError) {
    KILN_REQUIRE_DEVICE();
    EXPECT_THROW((void)kiln::empty({2, -3}), kiln::ShapeError);
    EXPECT_THROW((void)kiln::empty({1LL << 40, 1LL << 40}), kiln::ShapeError);
    const ndarray a = kiln::arange(6);
    EXPECT_THROW((void)a.reshape({4, 2}), kiln::ShapeError);
    EXPECT_THROW((void)a[{6}], kiln::IndexError);
    EXPECT_THROW((void)a.get<float>(), kiln::TypeError);
    std::vector<std::int64_t> small(5);
    EXPECT_THROW(a.get(std::span<std::int64_t>(small)), kiln::ShapeError);
    ndarray u = kiln::zeros({2}, kiln::uint8);
    try {
        u.fill(300);
        ADD_FAILURE() << "expected kiln::TypeError";
    } catch (const kiln::TypeError& e) {
        EXPECT_NE(std::string(e.what()).find("300 is out of range for uint8"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW((void)kiln::arange(0.0, 1.0, 0.0), kiln::Error);
    EXPECT_THROW((void)kiln::arange(std::int64_t{0}, std::numeric_limits<std::int64_t>::max()),
                 kiln::Error);
    EXPECT_THROW((void)kiln::arange(0.0, 1e300, 1.0), kiln::ShapeError);
}

TEST(Array, ExternalMemoryWithAndWithoutADeleter) {
    KILN_REQUIRE_DEVICE();
    const ndarray owner = kiln::arange(4);
    {
        const ndarray view = kiln::from_pointer(owner.data(), {2, 2}, kiln::int64);
        EXPECT_EQ(view.get<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3}));
        const ndarray column =
            kiln::from_pointer(owner.data(), {2}, kiln::int64, kiln::Strides{16});
        EXPECT_EQ(column.get<std::int64_t>(), (std::vector<std::int64_t>{0, 2}));
    }
    int deleted = 0;
    {
        const ndarray owned = kiln::from_pointer(owner.data(), {4}, kiln::int64, std::nullopt,
                                                 [&deleted](void*) { ++deleted; });
        const ndarray alias = owned[{Slice{1}}];
        EXPECT_EQ(deleted, 0);
    }
    EXPECT_EQ(deleted, 1);
    EXPECT_THROW((void)kiln::from_pointer(owner.data(), {2, 2}, kiln::int64, kiln::Strides{8}),
                 kiln::ShapeError);
}

TEST(Array, DlpackRoundTripSharesMemory) {
    KILN_REQUIRE_DEVICE();
    const ndarray a = kiln::arange(12).reshape({3, 4}).transpose();
    DLManagedTensor* tensor = kiln::to_dlpack(a);
    const DLDeviceType own =
        kiln::test::is_host() ? kDLCPU : (kiln::test::is_nvidia() ? kDLCUDA : kDLROCM);
    EXPECT_EQ(tensor->dl_tensor.device.device_type, own);
    EXPECT_EQ(tensor->dl_tensor.strides[0], 1);
    EXPECT_EQ(tensor->dl_tensor.strides[1], 4);
    const ndarray b = kiln::from_dlpack(tensor);
    EXPECT_EQ(b.data(), a.data());
    EXPECT_EQ(b.shape(), a.shape());
    EXPECT_EQ(b.strides(), a.strides());
    EXPECT_EQ(b.get<std::int64_t>(), a.get<std::int64_t>());

    // A tensor of another device type: host memory for a GPU backend, GPU memory for host.
    DLManagedTensor foreign{};
    std::int64_t shape[] = {1};
    foreign.dl_tensor.device = {own == kDLCPU ? kDLCUDA : kDLCPU, 0};
    foreign.dl_tensor.ndim = 1;
    foreign.dl_tensor.shape = shape;
    foreign.dl_tensor.dtype = {kDLFloat, 32, 1};
    EXPECT_THROW((void)kiln::from_dlpack(&foreign), kiln::Error);
}

}  // namespace
