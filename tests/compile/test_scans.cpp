// The scan kernels compile, with no device, for each accumulator size and kind they meet: cumsum
// of bool, int8 and uint32 into 64 bits, float16 into float32, float64, complex64 and complex128,
// and an explicit narrow dtype (int16).
#include "core/compile/compile_cache.hpp"
#include "core/kernels/builtin/scan_kernels.hpp"
#include "dialects/gpu/dialect.hpp"
#include "dialects/gpu/scan.hpp"
#include "tests/support/backend_under_test.hpp"
#include "tests/support/elf.hpp"

#include <kiln/dtype.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using kiln::detail::ScanDtypes;
using kiln::detail::ScanOperation;

void expect_compiles(const std::string& source, const char* kernel, const std::string& target) {
    const auto binary = kiln::detail::compile_uncached({source, kernel, {}, {}}, target);
    const auto elf = kiln::test::read_elf(binary.image);
    EXPECT_EQ(elf.machine, kiln::test::elf_machine());
    EXPECT_NE(std::find(elf.symbols.begin(), elf.symbols.end(), kernel), elf.symbols.end());
}

TEST(ScanKernels, RowAndColumnScansCompileForEachAccumulator) {
    const auto target = kiln::test::compile_targets().front();
    const std::vector<ScanDtypes> variants{{kiln::bool_, kiln::int64, kiln::int64},
                                           {kiln::int8, kiln::int64, kiln::int64},
                                           {kiln::uint32, kiln::uint64, kiln::uint64},
                                           {kiln::int32, kiln::int16, kiln::int16},
                                           {kiln::float16, kiln::float32, kiln::float16},
                                           {kiln::float64, kiln::float64, kiln::float32},
                                           {kiln::complex64, kiln::complex64, kiln::complex64},
                                           {kiln::complex128, kiln::complex128, kiln::complex128}};
    for (const auto operation : {ScanOperation::sum, ScanOperation::product}) {
        for (const ScanDtypes& dtypes : variants) {
            SCOPED_TRACE(std::string(kiln::name(dtypes.in)) + " in " +
                         std::string(kiln::name(dtypes.accumulator)));
            expect_compiles(kiln::detail::gpu_dialect::row_scan_source(operation, dtypes),
                            "kiln_scan_rows", target);
            expect_compiles(kiln::detail::column_scan_source(operation, dtypes,
                                                             kiln::detail::gpu_dialect::dialect()),
                            "kiln_scan_columns", target);
        }
    }
}

}  // namespace
