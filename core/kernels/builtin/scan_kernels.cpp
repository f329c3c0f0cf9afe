#include "scan_kernels.hpp"

#include "../../array/array_memory.hpp"
#include "../../backend.hpp"
#include "../../codegen/device_header_texts.hpp"
#include "../../codegen/device_prelude.hpp"
#include "../../codegen/kernel_dialect.hpp"
#include "../builtin_kernel.hpp"
#include "scan_dialect.hpp"

#include <kiln/device.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace kiln::detail {

namespace {

// Column i of the (outer, length, inner) array scanned down its length: kiln_scan_column, from
// kiln/scan_column.cuh.
constexpr std::string_view column_scan_body =
    "    KILN_FOR_EACH_INDEX(outer * inner) {\n"
    "        kiln_scan_column(x, y, length, inner, i);\n"
    "    }\n"
    "}\n";

constexpr std::string_view column_scan_params =
    "const kiln_in* x, kiln_out* y, long long outer, long long length, long long inner";

}  // namespace

std::string scan_typedefs(ScanOperation operation, const ScanDtypes& dtypes) {
    const bool sum = operation == ScanOperation::sum;
    const std::size_t word = itemsize(dtypes.accumulator) % 4 == 0   ? 4
                             : itemsize(dtypes.accumulator) % 2 == 0 ? 2
                                                                     : 1;
    return std::string(device_prelude()) +
           "#include <kiln/ufunc.h>\n"
           "typedef " +
           std::string(c_type(dtypes.in)) + " kiln_in;\ntypedef " +
           std::string(c_type(dtypes.accumulator)) + " kiln_acc;\ntypedef " +
           std::string(c_type(dtypes.out)) + " kiln_out;\ntypedef " +
           (word == 4   ? "unsigned int"
            : word == 2 ? "unsigned short"
                        : "unsigned char") +
           " kiln_word;\n"
           "#define KILN_IDENTITY kiln_acc(" +
           (sum ? "0" : "1") +
           ")\n"
           "__device__ inline kiln_acc kiln_op(kiln_acc a, kiln_acc b) {\n"
           "    return kiln::ufunc::" +
           (sum ? "add" : "multiply") + "(a, b);\n}\n";
}

std::string scan_variant(ScanOperation operation, const ScanDtypes& dtypes) {
    return std::string(operation == ScanOperation::sum ? "sum " : "product ") +
           std::string(name(dtypes.in)) + ' ' + std::string(name(dtypes.accumulator)) + ' ' +
           std::string(name(dtypes.out));
}

std::string column_scan_source(ScanOperation operation, const ScanDtypes& dtypes,
                               const KernelDialect& dialect) {
    return scan_typedefs(operation, dtypes) + std::string(dialect.for_each_index_macro) +
           std::string(header_text::scan_column_cuh().text) +
           dialect.kernel_opening("kiln_scan_columns", column_scan_params, {}) +
           std::string(column_scan_body) + dialect.kernel_closing("kiln_scan_columns");
}

void scan_rows(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
               std::int64_t rows, std::int64_t length, StreamView stream) {
    if (rows == 0 || length == 0) {
        return;
    }
    active_kernel_dialect().scan.scan_rows(operation, dtypes, in, out, rows, length, stream);
}

void scan_columns(ScanOperation operation, const ScanDtypes& dtypes, const void* in, void* out,
                  std::int64_t outer, std::int64_t length, std::int64_t inner, StreamView stream) {
    long long columns = outer * inner;
    if (columns == 0 || length == 0) {
        return;
    }
    const void* x = in;
    void* y = out;
    long long outer_count = outer;
    long long column_length = length;
    long long inner_count = inner;
    std::array<void*, 5> args{&x, &y, &outer_count, &column_length, &inner_count};
    static constexpr BuiltinKernel kernel("kiln_scan_columns");
    NativeFunction function =
        kernel.function(stream, scan_variant(operation, dtypes), [&](const KernelDialect& dialect) {
            return column_scan_source(operation, dtypes, dialect);
        });
    kernel.launch_indices(function, columns, stream, args.data());
}

}  // namespace kiln::detail
