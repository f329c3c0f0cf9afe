// kiln's device headers (kiln/complex.h, kiln/limits.h, ...) under the real compilers, for every
// CI target, with no device.
#include "core/backend.hpp"
#include "core/codegen/device_prelude.hpp"
#include "core/compile/compile_cache.hpp"
#include "core/compile/compile_key.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/complex_kernels.hpp"
#include "tests/support/device_texts.hpp"
#include "tests/support/elf.hpp"
#include "tests/support/kernels.hpp"

#include <kiln/error.hpp>
#include <kiln/raw_module.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace {

using kiln::detail::backend;

bool defines(const kiln::detail::CompiledBinary& binary, const std::string& symbol) {
    const auto symbols = kiln::test::read_elf(binary.image).symbols;
    return std::find(symbols.begin(), symbols.end(), symbol) != symbols.end();
}

// `source` compiles for every CI target into a code object that defines `kernel`.
void expect_compiles_for_every_target(const std::string& source, const std::string& kernel) {
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        EXPECT_TRUE(
            defines(kiln::detail::compile_uncached({source, kernel, {}, {}}, target), kernel));
    }
}

// Each header on its own, so none relies on another having been included first.
TEST(DeviceHeaders, EachHeaderCompilesAlone) {
    for (const auto& target : kiln::test::compile_targets()) {
        for (const auto& header : kiln::detail::device_headers(backend().kind(), target)) {
            SCOPED_TRACE(target + " " + header.name);
            const std::string source = "#include <" + header.name +
                                       ">\n"
                                       "extern \"C\" __global__ void alone(int* x) { *x = 1; }\n";
            EXPECT_TRUE(defines(kiln::detail::compile_uncached({source, "alone", {}, {}}, target),
                                "alone"));
        }
        for (const auto& [name, file] : kiln::test::standalone_device_texts()) {
            SCOPED_TRACE(target + " " + name);
            const std::string source =
                std::string(file.text) + "extern \"C\" __global__ void alone(int* x) { *x = 1; }\n";
            EXPECT_TRUE(defines(kiln::detail::compile_uncached({source, "alone", {}, {}}, target),
                                "alone"));
        }
    }
}

// Every type and shim the headers offer, used once.
constexpr const char* everything_source = R"(
#include <kiln/device.h>

template <class T>
__device__ void shuffle(T* x) {
    x[0] = kiln_shfl_down(x[0], 1U);
    x[1] = kiln_shfl_xor(x[1], 1);
}

extern "C" __global__ void everything(int* i, unsigned int* u, long long* ll,
                                      unsigned long long* ull, float* f, double* d,
                                      complex<float>* zf, complex<double>* zd, float16* h) {
    shuffle(i);
    shuffle(u);
    shuffle(ll);
    shuffle(ull);
    shuffle(f);
    shuffle(d);
    kiln_atomic_add(i, 1);
    kiln_atomic_add(u, 1U);
    kiln_atomic_add(ull, 1ULL);
    kiln_atomic_add(f, 1.0F);
    kiln_atomic_add(d, 1.0);
    zf[0] = zf[0] * zf[1] + conj(zf[1]) / zf[2] - complex<float>(real(zf[0]), norm(zf[1]));
    zd[0] = complex<double>(zf[0]) * zd[1];
    h[0] = float16(float(h[0]) * 2.0F);
    f[2] = kiln::numeric_limits<float>::infinity();
    d[2] = kiln::numeric_limits<double>::quiet_NaN();
    ll[2] = kiln::numeric_limits<long long>::max() / KILN_WARP_SIZE;
    __shared__ float per_lane[KILN_WARP_SIZE];
    per_lane[threadIdx.x % KILN_WARP_SIZE] = f[3];
    f[4] = per_lane[0];
}
)";

TEST(DeviceHeaders, EveryTypeAndShimCompilesForEveryCiTarget) {
    expect_compiles_for_every_target(everything_source, "everything");
}

// Every operation of kiln/complex.h, for both precisions and with each real type a kernel
// meets, under the name lookup user code gets: unqualified, through the `using kiln::complex`
// and `using kiln::polar` of kiln/device.h (the functions of a complex argument are found by
// argument-dependent lookup).
constexpr const char* complex_source = R"source(
#include <kiln/device.h>

template <class T, class Other>
__device__ void every_operation(complex<T>* z, T* r, bool* b) {
    const complex<T> x = z[0];
    const complex<T> y = z[1];
    const T s = r[0];
    const complex<Other> w = complex<Other>(Other(r[1]), Other(r[2]));
    complex<T> t = x + y - x * y / x;
    t = t + s + (s - t) * s / t - t / s + s * t - 2 * t + t * 2.0F + 1 / t;
    t = +t - -t + w + w * t - t / w;
    t += y;
    t -= w;
    t *= y;
    t /= w;
    t += s;
    t -= 1;
    t *= 2.0;
    t /= 3U;
    t = abs(t) + arg(t) + norm(t) + real(t) + imag(t) + t.real() + t.imag();
    t = t + conj(t) + exp(t) + log(t) + sqrt(t) + polar(s, r[1]) + polar(2, 1) + polar(s);
    t = t + pow(t, y) + pow(t, s) + pow(2, t) + pow(t, w);
    t.real(s);
    t.imag(T(1));
    complex<T> copied = w;
    copied = t;
    z[2] = t + copied;
    b[0] = x == y || x != y || x == s || s == x || x != 0 || 0.5 != x || w == x;
    b[1] = bool(t);
}

// A device array of complex<double> is 16-byte aligned, as the host's std::complex<double>.
static_assert(sizeof(complex<double>) == 16 && alignof(complex<double>) == 16, "complex128");
static_assert(sizeof(complex<float>) == 8 && alignof(complex<float>) == 8, "complex64");

extern "C" __global__ void complex_operations(complex<float>* zf, float* f, complex<double>* zd,
                                              double* d, bool* b) {
    every_operation<float, double>(zf, f, b);
    every_operation<double, float>(zd, d, b + 2);
}
)source";

TEST(DeviceHeaders, EveryComplexOperationCompilesForEveryCiTarget) {
    expect_compiles_for_every_target(complex_source, "complex_operations");
}

// Mixed operations compute in the promoted type, as thrust::complex (CuPy's) does.
constexpr const char* complex_types_source = R"source(
#include <kiln/complex.h>

template <class A, class B>
struct same { static const bool value = false; };
template <class A>
struct same<A, A> { static const bool value = true; };

#define zf kiln::complex<float>()
#define zd kiln::complex<double>()

static_assert(same<decltype(zf * zf), kiln::complex<float>>::value, "c64 * c64");
static_assert(same<decltype(zf * 2), kiln::complex<float>>::value, "c64 * int");
static_assert(same<decltype(2.0F + zf), kiln::complex<float>>::value, "float + c64");
static_assert(same<decltype(zf * 2.0), kiln::complex<double>>::value, "c64 * double");
static_assert(same<decltype(zf / zd), kiln::complex<double>>::value, "c64 / c128");
static_assert(same<decltype(zd - 1.0F), kiln::complex<double>>::value, "c128 - float");
static_assert(same<decltype(kiln::abs(zf)), float>::value, "abs c64");
static_assert(same<decltype(kiln::norm(zd)), double>::value, "norm c128");
static_assert(same<decltype(kiln::polar(2, 1)), kiln::complex<double>>::value, "polar(int)");
static_assert(same<decltype(kiln::polar(2.0F, 1.0F)), kiln::complex<float>>::value, "polar(f)");
static_assert(same<decltype(kiln::pow(zf, 2)), kiln::complex<float>>::value, "pow(c64, int)");
static_assert(same<decltype(kiln::sqrt(zf)), kiln::complex<float>>::value, "sqrt c64");

extern "C" __global__ void complex_types(kiln::complex<float>* z) { *z = z[1] * 2.0F; }
)source";

TEST(DeviceHeaders, MixedComplexOperationsPromoteAsThrustDoes) {
    expect_compiles_for_every_target(complex_types_source, "complex_types");
}

// The kernels the complex device tests run, so that a compile error shows here, with no device.
TEST(DeviceHeaders, ComplexDeviceTestKernelsCompileForEveryCiTarget) {
    const std::string operations =
        std::string("#include <kiln/device.h>\n") + kiln::test::complex_operations_preamble + R"(
extern "C" __global__ void operations(const complex<float>* xf, const float* sf,
                                      complex<float>* zf, const complex<double>* xd,
                                      const double* sd, complex<double>* zd, int op) {
    zf[0] = apply(op, xf[0], xf[1], sf[0]);
    zd[0] = apply(op, xd[0], xd[1], sd[0]);
}
)";
    expect_compiles_for_every_target(operations, "operations");
    expect_compiles_for_every_target(kiln::test::complex_functions_source, "functions_c64");
    expect_compiles_for_every_target(kiln::test::complex_functions_source, "functions_c128");
}

// The expected values are NumPy's (np.iinfo(t).min / .max, np.finfo(t).max / .tiny / .eps /
// .smallest_subnormal / .nmant + 1, printed with repr), checked where the compiler evaluates them.
constexpr const char* limits_source = R"(
#include <kiln/limits.h>

template <class T>
using L = kiln::numeric_limits<T>;

static_assert(L<signed char>::min() == -128 && L<signed char>::max() == 127, "int8");
static_assert(L<short>::min() == -32768 && L<short>::max() == 32767, "int16");
static_assert(L<int>::min() == -2147483647 - 1 && L<int>::max() == 2147483647, "int32");
static_assert(L<long long>::min() == -9223372036854775807LL - 1, "int64 min");
static_assert(L<long long>::max() == 9223372036854775807LL, "int64 max");
static_assert(L<unsigned char>::min() == 0 && L<unsigned char>::max() == 255, "uint8");
static_assert(L<unsigned short>::max() == 65535, "uint16");
static_assert(L<unsigned int>::max() == 4294967295U, "uint32");
static_assert(L<unsigned long long>::max() == 18446744073709551615ULL, "uint64");
static_assert(L<unsigned long long>::lowest() == 0, "uint64 lowest");
static_assert(L<long>::max() == (sizeof(long) == 8 ? 9223372036854775807L : 2147483647L), "long");
static_assert(L<bool>::min() == false && L<bool>::max() == true && L<bool>::digits == 1, "bool");
static_assert(L<char>::max() == (char(-1) < char(0) ? 127 : 255), "char");
static_assert(L<int>::digits == 31 && L<unsigned int>::digits == 32, "digits");
static_assert(L<int>::is_signed && !L<unsigned int>::is_signed && L<int>::is_integer, "flags");

static_assert(L<float>::max() == 3.4028235e+38F && L<float>::lowest() == -3.4028235e+38F, "f32");
static_assert(L<float>::min() == 1.1754944e-38F, "f32 tiny");
static_assert(L<float>::epsilon() == 1.1920929e-07F, "f32 eps");
static_assert(L<float>::denorm_min() == 1e-45F, "f32 subnormal");
static_assert(L<float>::digits == 24 && !L<float>::is_integer, "f32 digits");
static_assert(L<double>::max() == 1.7976931348623157e+308, "f64");
static_assert(L<double>::lowest() == -1.7976931348623157e+308, "f64 lowest");
static_assert(L<double>::min() == 2.2250738585072014e-308, "f64 tiny");
static_assert(L<double>::epsilon() == 2.220446049250313e-16, "f64 eps");
static_assert(L<double>::denorm_min() == 5e-324, "f64 subnormal");
static_assert(L<double>::digits == 53, "f64 digits");

static_assert(L<float>::infinity() > L<float>::max(), "f32 inf");
static_assert(-L<double>::infinity() < L<double>::lowest(), "f64 -inf");
static_assert(L<float>::quiet_NaN() != L<float>::quiet_NaN(), "f32 nan");
static_assert(!(L<double>::quiet_NaN() == L<double>::quiet_NaN()), "f64 nan");
static_assert(L<float>::has_infinity && !L<int>::has_infinity, "has_infinity");
static_assert(!L<complex_is_not_a_limit_type*>::is_specialized, "unspecialized");

extern "C" __global__ void limits(float* x) { *x = L<float>::max(); }
)";

TEST(DeviceHeaders, LimitsAreNumPysValuesAsConstantExpressions) {
    expect_compiles_for_every_target(
        std::string("struct complex_is_not_a_limit_type;\n") + limits_source, "limits");
}

// Every header included and used, yet the code object holds no variable of kiln's: a module with
// device globals loads several times slower, and every generated kernel includes the headers.
TEST(DeviceHeaders, GiveAModuleNoGlobals) {
    const std::string source = std::string("struct complex_is_not_a_limit_type;\n") +
                               "#include <kiln/device.h>\n" + limits_source;
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        const auto symbols =
            kiln::test::read_elf(
                kiln::detail::compile_uncached({source, "limits", {}, {}}, target).image)
                .symbols;
        for (const auto& symbol : symbols) {
            EXPECT_EQ(symbol.find("kiln"), std::string::npos) << symbol;
        }
    }
}

std::string warp_size_check(int expected) {
    return "#include <kiln/warp.h>\n"
           "static_assert(KILN_WARP_SIZE == " +
           std::to_string(expected) +
           ", \"warp size\");\n"
           "extern \"C\" __global__ void warp_size(int* x) { *x = KILN_WARP_SIZE; }\n";
}

// 32 on every NVIDIA target; on AMD 64 for CDNA (gfx908, gfx90a), 32 for RDNA (gfx1030).
TEST(DeviceHeaders, WarpSizeIsTheTargetsLiteral) {
    const std::map<std::string, int> expected{
        {"sm_80", 32}, {"sm_90", 32}, {"gfx908", 64}, {"gfx90a", 64}, {"gfx1030", 32}};
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        ASSERT_TRUE(expected.contains(target));
        const int size = expected.at(target);
        EXPECT_TRUE(defines(
            kiln::detail::compile_uncached({warp_size_check(size), "warp_size", {}, {}}, target),
            "warp_size"));
        const int wrong = size == 32 ? 64 : 32;
        try {
            (void)kiln::detail::compile_uncached({warp_size_check(wrong), "warp_size", {}, {}},
                                                 target);
            ADD_FAILURE() << "KILN_WARP_SIZE == " << wrong << " compiled";
        } catch (const kiln::CompileError& e) {
            EXPECT_NE(e.log().find("static"), std::string::npos) << e.log();
            EXPECT_NE(e.log().find("warp size"), std::string::npos) << e.log();
        }
    }
}

// User code reaches the headers too, through RawModule and the compile cache.
TEST(DeviceHeaders, RawModuleCodeIncludesThem) {
    const kiln::RawModule module(R"(
#include <kiln/complex.h>
#include <kiln/limits.h>
extern "C" __global__ void user(kiln::complex<double>* z, double* lowest) {
    *z = kiln::conj(*z);
    *lowest = kiln::numeric_limits<double>::lowest();
}
)");
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        const auto image = module.compile(target);
        const auto symbols = kiln::test::read_elf(image).symbols;
        EXPECT_NE(std::find(symbols.begin(), symbols.end(), "user"), symbols.end());
    }
}

// A header edit must change the key, so a binary built from the old text is never loaded: the key
// covers each header's name and build-time SHA-256 (the unit tests check those hashes).
TEST(DeviceHeaders, CacheKeyCoversEveryHeaderText) {
    const auto target = kiln::test::compile_targets().front();
    const auto request = kiln::detail::resolve({kiln::test::axpy_source, "axpy", {}, {}}, target);
    const auto kind = backend().kind();
    const auto version = backend().compiler_version();
    const std::vector<kiln::detail::DeviceHeader> headers(request.headers.begin(),
                                                          request.headers.end());
    EXPECT_EQ(headers, kiln::detail::device_headers(kind, target));
    const auto fingerprint = kiln::detail::device_headers_fingerprint(kind, target);
    const auto key_with = [&](const std::string& set) {
        return kiln::detail::compile_key(request, kind, version, kiln::detail::headers_digest(set));
    };
    EXPECT_EQ(key_with(fingerprint), request.key) << "resolve keys the request by its headers";
    for (const auto& header : headers) {
        SCOPED_TRACE(header.name);
        const auto at = fingerprint.find(header.name + " ");
        ASSERT_NE(at, std::string::npos) << fingerprint;
        const auto hash_end = fingerprint.find('\n', at);
        auto edited = fingerprint;
        edited[hash_end - 1] = edited[hash_end - 1] == '0' ? '1' : '0';
        EXPECT_NE(key_with(edited), request.key);
        auto renamed = fingerprint;
        renamed.insert(at + header.name.size(), "x");
        EXPECT_NE(key_with(renamed), request.key);
    }
}

}  // namespace
