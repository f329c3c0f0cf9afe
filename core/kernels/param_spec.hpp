// The parameter lists of ElementwiseKernel and ReductionKernel, as CuPy writes them:
// "T x, raw T y, float32 alpha". Each comma-separated entry is `[raw] [_non_const] TYPE NAME`,
// where TYPE is a one-letter type placeholder (bound per call from the arguments) or a NumPy dtype
// name. Parsing checks everything that can be checked before the first call, so a bad list fails
// where the kernel is built rather than inside generated source.
#pragma once

#include <kiln/dtype.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

// One entry of a parameter list.
struct ParamSpec {
    std::string name;
    std::optional<DType> dtype;  // fixed dtype, or nullopt for a placeholder
    std::string placeholder;     // the placeholder letter when dtype is nullopt
    bool raw = false;            // indexed by the kernel itself rather than per element
    bool non_const = false;      // an input the kernel may write to
    std::string type_text;       // TYPE as written (for messages)
};

// Which kernel class a list belongs to: reductions reserve more names (their operands a and b).
enum class KernelKind : std::uint8_t { elementwise, reduction };

// Whether `text` is a C identifier: a letter or '_', then letters, digits and '_' (ASCII only).
[[nodiscard]] bool is_identifier(std::string_view text) noexcept;

// Whether a parameter may not be called `name` because kiln's generated code uses it: `i`, names
// starting with '_', C++ keywords and, for reductions, `a` and `b`.
[[nodiscard]] bool is_reserved_name(std::string_view name, KernelKind kind) noexcept;

// Parses an "in_params" or "out_params" text (`which` says which, for messages); an empty or
// blank text is an empty list. Throws TypeError for a TYPE that is neither a placeholder nor a
// dtype name, and Error for a malformed entry, an invalid or reserved name, or a name used twice
// in the list. Messages name the kernel, the list, the entry's 1-based position and text, and
// what was expected.
[[nodiscard]] std::vector<ParamSpec> parse_params(std::string_view text, std::string_view kernel,
                                                  std::string_view which, KernelKind kind);

// Checks what spans both lists: the kernel name is a C identifier and no C++ keyword, no name is
// used twice across in_params and out_params, and no parameter is named like a type placeholder
// the kernel uses (its declaration would hide the type). Throws Error.
void check_kernel_params(std::string_view kernel, const std::vector<ParamSpec>& in,
                         const std::vector<ParamSpec>& out, KernelKind kind);

}  // namespace kiln::detail
