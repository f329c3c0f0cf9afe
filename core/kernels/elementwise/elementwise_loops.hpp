// The data a dialect's ElementwiseKernel loops are written from (elementwise_dialect.hpp), and the
// pieces every dialect's loops are made of: how each array parameter is bound to its element
// around the user's operation. elementwise_kernel_source() writes the parameter list and the
// prologue; a dialect writes the body.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kiln::detail {

// An array parameter as the loops bind it.
struct LoopOperand {
    std::string name;
    std::string type;  // as declared in the kernel: a placeholder or a C type
    std::size_t itemsize = 0;
    // A const input: read into registers (or shared memory) before the operation runs. Outputs
    // and writable inputs stay bound to memory, so that the operation's writes land there.
    bool loaded = false;
};

// What the body depends on besides the operands.
struct LoopShape {
    std::string index;            // "int" or "long long"
    int ndim = 1;                 // kiln_dims rank of the parameters (>= 1)
    bool contiguous = true;       // arrays indexed by i (no _shape or strides used)
    int elements_per_thread = 1;  // K of the load-ahead loops; 1: the plain loops only
    bool tiled = false;           // the dialect's tiled mode exists for this variant
    std::string operation;
    std::vector<std::string> writable;  // pointers the operation may write through (alias check)
};

// The type an operand is bound as: const for a loaded input.
[[nodiscard]] std::string loop_type(const LoopOperand& op);

// The operand's element at byte offset `offset` from its pointer.
[[nodiscard]] std::string loop_element(const LoopOperand& op, const std::string& offset);

// Prefixes every line of `text` with `spaces` spaces.
[[nodiscard]] std::string indented(const std::string& text, int spaces);

// Byte offsets of an operand's element: at flat index i of a contiguous loop; at column _c of the
// row whose start _q_<name> row_start() computed.
[[nodiscard]] std::string contiguous_offset(const LoopOperand& op, const LoopShape& shape);
[[nodiscard]] std::string row_offset(const LoopOperand& op, const LoopShape& shape);

// Binds every operand's name to its element at the offset `offset_of` gives.
[[nodiscard]] std::string memory_bindings(
    const std::vector<LoopOperand>& operands,
    const std::function<std::string(const LoopOperand&)>& offset_of);

// Each operand's byte offset _q_<name> of the start of row _row (all axes but the last, _last),
// unravelled through _shape and the operand's strides.
[[nodiscard]] std::string row_start(const std::vector<LoopOperand>& operands,
                                    const LoopShape& shape);

}  // namespace kiln::detail
