// The loops of a generated ElementwiseKernel: which elements each thread takes and how each array
// parameter is bound to its element around the user's operation. elementwise_kernel_source()
// writes the parameter list and the prologue; these write the body.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace kiln::detail {

// Threads per block of every launch (the tiled mode's loops count on it).
inline constexpr int elementwise_block = 256;

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
    bool tiled = false;           // ndim == 2 strided: the tiled mode exists
    std::string operation;
    std::vector<std::string> writable;  // pointers the operation may write through (alias check)
};

// Shared memory of one operand's tile in tiled mode (32 rows of 33, padded against bank
// conflicts), rounded up to 16 bytes; the tiles lie in operand order.
[[nodiscard]] std::size_t tile_bytes(std::size_t itemsize);

// The kernel's body between its prologue and after_loop, indented for it.
[[nodiscard]] std::string elementwise_loops(const std::vector<LoopOperand>& operands,
                                            const LoopShape& shape);

// Rows of the host's tiles; _tile_columns says how many columns.
inline constexpr int host_tile_rows = 128;

// The host dialect's body: the blocks [_kiln_grid.first, _kiln_grid.end) of blockDim.x
// consecutive elements each, as one loop per innermost row, which the compiler can vectorise, or,
// in tiled mode (_tile_columns non-zero, blocks of whole rows), tile by tile.
[[nodiscard]] std::string elementwise_host_loops(const std::vector<LoopOperand>& operands,
                                                 const LoopShape& shape);

// The pieces both dialects' loops are made of.

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
