// The host dialect's ElementwiseKernel loops: the blocks [_kiln_grid.first, _kiln_grid.end) of
// blockDim.x consecutive elements each, as one loop per innermost row, which the compiler can
// vectorise, or, in tiled mode (_tile_columns non-zero, blocks of whole rows), tile by tile.
#include "elementwise.hpp"

#include "../../core/kernels/elementwise/elementwise_loops.hpp"

namespace kiln::detail::host_dialect {

namespace {

// The elements of this call's blocks: [_lo, _hi).
std::string element_range(const LoopShape& shape) {
    const std::string& ix = shape.index;
    std::string code = "const long long _per_block = (long long)_kiln_grid.block.x;\n";
    code += "const long long _end = (long long)_kiln_grid.end * _per_block;\n";
    code += "const " + ix + " _lo = (" + ix + ")((long long)_kiln_grid.first * _per_block);\n";
    code += "const " + ix + " _hi = (" + ix + ")(_end < _n ? _end : _n);\n";
    return code;
}

std::string contiguous(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    std::string code = "for (" + ix + " i = _lo; i < _hi; ++i) {\n";
    code +=
        indented(memory_bindings(
                     operands, [&](const LoopOperand& op) { return contiguous_offset(op, shape); }),
                 4);
    return code + "    " + shape.operation + ";\n}\n";
}

// Byte offset of an operand's element at column _c of the row starting at _q_<name>, when every
// operand steps one item along rows: a step known to the compiler, which can then vectorise.
std::string unit_row_offset(const LoopOperand& op, const LoopShape& shape) {
    return "_q_" + op.name + " + _c * (" + shape.index + ")sizeof(" + op.type + ")";
}

// `const bool <flag>`: whether every operand (with `written_only`, every operand the operation
// writes, so that a transposed input read into a C-ordered output still stores contiguously)
// steps one item along rows.
std::string unit_test(const std::vector<LoopOperand>& operands, const LoopShape& shape,
                      const std::string& flag, bool written_only) {
    std::string test;
    for (const auto& op : operands) {
        if (!written_only || !op.loaded) {
            test += (test.empty() ? "" : " && ") +
                    ("_s_" + op.name + ".v[_last] == (" + shape.index + ")sizeof(" + op.type + ")");
        }
    }
    return "const bool " + flag + " = " + (test.empty() ? std::string("true") : test) + ";\n";
}

// Columns [c0, c1) of row _row, each operand bound at `offset_of`.
std::string row_loop(const std::vector<LoopOperand>& operands, const LoopShape& shape,
                     const std::string& c0, const std::string& c1,
                     const std::function<std::string(const LoopOperand&)>& offset_of) {
    const std::string& ix = shape.index;
    std::string code = "for (" + ix + " _c = " + c0 + "; _c < " + c1 + "; ++_c) {\n";
    code += "    const " + ix + " i = _row * _cols + _c;\n";
    code += indented(memory_bindings(operands, offset_of), 4);
    return code + "    " + shape.operation + ";\n}\n";
}

// Strided: the range in pieces of innermost rows, each row's start unravelled once; a copy of the
// row's loop for operands that all step one item along it (a broadcast row, whole rows).
std::string strided(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    const auto strided_offset = [&](const LoopOperand& op) { return row_offset(op, shape); };
    const auto unit_offset = [&](const LoopOperand& op) { return unit_row_offset(op, shape); };
    std::string code = "for (" + ix + " _i = _lo; _i < _hi;) {\n";
    code += "    const " + ix + " _row = _i / _cols;\n";
    code += "    const " + ix + " _c0 = _i - _row * _cols;\n";
    code += "    const " + ix + " _c1 = _hi - _i < _cols - _c0 ? _c0 + (_hi - _i) : _cols;\n";
    code += indented(row_start(operands, shape), 4);
    code +=
        "    if (_unit) {\n" + indented(row_loop(operands, shape, "_c0", "_c1", unit_offset), 8);
    code += "    } else {\n" +
            indented(row_loop(operands, shape, "_c0", "_c1", strided_offset), 8) + "    }\n";
    return code + "    _i += _c1 - _c0;\n}\n";
}

// Tiled (the launch's blocks are whole rows, and some operand steps less between rows than along
// them, as a transpose does): groups of tile_rows rows, walked _tile_columns columns at a
// time, so that the lines each operand's tile touches stay in cache until every element on them is
// used. On one thread of an Intel Xeon, y = x + x of a transposed 8192² float32 took 1174 ms by
// rows; in tiles of 32x32 181 ms, 64x32 141, 128x16 161, 128x32 119, 128x64 124, 256x32 118. The
// launch picks the width by the CPU's level-1 cache (elementwise_launch).
std::string tiles(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    const std::string tile = std::to_string(tile_rows);
    const std::string width = "(" + ix + ")_tile_columns";
    std::string code = unit_test(operands, shape, "_written_unit", true);
    code += "const " + ix + " _rows_end = _hi / _cols;\n";
    code += "for (" + ix + " _row0 = _lo / _cols; _row0 < _rows_end; _row0 += " + tile + ") {\n";
    code += "    const int _height = _rows_end - _row0 < " + tile +
            " ? int(_rows_end - _row0) : " + tile + ";\n";
    for (const auto& op : operands) {
        code.append("    ").append(ix).append(" _starts_").append(op.name);
        code.append("[").append(tile).append("];\n");
    }
    code +=
        "    for (int _k = 0; _k < _height; ++_k) {\n        const " + ix + " _row = _row0 + _k;\n";
    code += indented(row_start(operands, shape), 8);
    for (const auto& op : operands) {
        code += "        _starts_" + op.name + "[_k] = _q_" + op.name + ";\n";
    }
    code += "    }\n";
    code += "    for (" + ix + " _t0 = 0; _t0 < _cols; _t0 += " + width + ") {\n";
    code += "        const " + ix + " _t1 = _cols - _t0 < " + width + " ? _cols : _t0 + " + width +
            ";\n";
    code += "        for (int _k = 0; _k < _height; ++_k) {\n";
    code += "            const " + ix + " _row = _row0 + _k;\n";
    for (const auto& op : operands) {
        code += "            const " + ix + " _q_" + op.name + " = _starts_" + op.name + "[_k];\n";
    }
    const auto strided_offset = [&](const LoopOperand& op) { return row_offset(op, shape); };
    const auto written_unit_offset = [&](const LoopOperand& op) {
        return op.loaded ? row_offset(op, shape) : unit_row_offset(op, shape);
    };
    code += "            if (_written_unit) {\n" +
            indented(row_loop(operands, shape, "_t0", "_t1", written_unit_offset), 16);
    code += "            } else {\n" +
            indented(row_loop(operands, shape, "_t0", "_t1", strided_offset), 16) +
            "            }\n";
    return code + "        }\n    }\n}\n";
}

}  // namespace

std::string elementwise_loops(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    if (shape.contiguous) {
        return indented(element_range(shape) + contiguous(operands, shape), 4);
    }
    std::string code = element_range(shape) + "const int _last = " + std::to_string(shape.ndim) +
                       " - 1;\nconst " + shape.index + " _cols = (" + shape.index +
                       ")_shape.v[_last];\n";
    if (shape.ndim < 2) {
        return indented(
            code + unit_test(operands, shape, "_unit", false) + strided(operands, shape), 4);
    }
    code += "if (_tile_columns != 0) {\n" + indented(tiles(operands, shape), 4) + "} else {\n";
    code +=
        indented(unit_test(operands, shape, "_unit", false) + strided(operands, shape), 4) + "}\n";
    return indented(code, 4);
}

}  // namespace kiln::detail::host_dialect
