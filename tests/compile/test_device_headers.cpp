// kiln's device headers (kiln/complex.h, kiln/limits.h, ...) under the real compilers, for every
// CI target, with no device.
#include "core/backend.hpp"
#include "core/cache/compile_cache.hpp"
#include "core/codegen/device_prelude.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"
#include "tests/support/kernels.hpp"

#include <kiln/error.hpp>
#include <kiln/raw_module.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace {

using kiln::detail::backend;
using kiln::detail::CompileRequest;

bool defines(const kiln::detail::CompiledBinary& binary, const std::string& symbol) {
    const auto symbols = kiln::test::read_elf(binary.image).symbols;
    return std::find(symbols.begin(), symbols.end(), symbol) != symbols.end();
}

// Each header on its own, so none relies on another having been included first.
TEST(DeviceHeaders, EachHeaderCompilesAlone) {
    for (const auto& target : kiln::test::compile_targets()) {
        for (const auto& header : kiln::detail::device_headers(backend().kind(), target)) {
            SCOPED_TRACE(target + " " + header.name);
            const std::string source = "#include <" + header.name +
                                       ">\n"
                                       "extern \"C\" __global__ void alone(int* x) { *x = 1; }\n";
            EXPECT_TRUE(
                defines(backend().compile(CompileRequest{source, "alone", {}, target}), "alone"));
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
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        const auto binary =
            backend().compile(CompileRequest{everything_source, "everything", {}, target});
        EXPECT_TRUE(defines(binary, "everything"));
    }
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
    const std::string source = std::string("struct complex_is_not_a_limit_type;\n") + limits_source;
    for (const auto& target : kiln::test::compile_targets()) {
        SCOPED_TRACE(target);
        EXPECT_TRUE(
            defines(backend().compile(CompileRequest{source, "limits", {}, target}), "limits"));
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
            backend().compile(CompileRequest{warp_size_check(size), "warp_size", {}, target}),
            "warp_size"));
        const int wrong = size == 32 ? 64 : 32;
        try {
            (void)backend().compile(
                CompileRequest{warp_size_check(wrong), "warp_size", {}, target});
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

// A header edit must change the key, so a binary built from the old text is never loaded.
TEST(DeviceHeaders, CacheKeyCoversEveryHeaderText) {
    const auto target = kiln::test::compile_targets().front();
    const CompileRequest request{kiln::test::axpy_source, "axpy", {}, target};
    const auto kind = backend().kind();
    const auto headers = kiln::detail::device_headers(kind, target);
    const auto key = kiln::detail::compile_key(request, kind, "compiler 1.0", headers, {});
    EXPECT_EQ(kiln::detail::compile_key(request, kind, "compiler 1.0", headers, {}), key);
    for (std::size_t i = 0; i < headers.size(); ++i) {
        SCOPED_TRACE(headers[i].name);
        auto edited = headers;
        edited[i].text += "\n// edited\n";
        EXPECT_NE(kiln::detail::compile_key(request, kind, "compiler 1.0", edited, {}), key);
        auto renamed = headers;
        renamed[i].name += "x";
        EXPECT_NE(kiln::detail::compile_key(request, kind, "compiler 1.0", renamed, {}), key);
    }
}

}  // namespace
