// The GPU dialect's ElementwiseKernel loops: grid-strided, reading K elements ahead where the
// operation allows, a block a row in row mode, and 32x32 tiles through shared memory in tiled mode.
#include "elementwise.hpp"

#include "../../core/kernels/elementwise/elementwise_loops.hpp"

namespace kiln::detail::gpu_dialect {

namespace {

// Load-ahead bindings: loaded operands to their register copy _v_<name>[_k], the others to memory.
template <class OffsetOf>
std::string ahead_bindings(const std::vector<LoopOperand>& operands, OffsetOf offset_of) {
    std::string code;
    for (const auto& op : operands) {
        code += loop_type(op) + "& " + op.name + " = " +
                (op.loaded ? "_v_" + op.name + "[_k]" : loop_element(op, offset_of(op))) + ";\n";
    }
    return code;
}

// The register copies of a load-ahead step, and the loop that fills them: element _k of the step
// is `position` (an expression of _k), present when `present` holds.
template <class OffsetOf>
std::string ahead_loads(const std::vector<LoopOperand>& operands, const LoopShape& shape,
                        const std::string& position, const std::string& present,
                        OffsetOf offset_of) {
    const std::string k = std::to_string(shape.elements_per_thread);
    std::string code;
    for (const auto& op : operands) {
        if (op.loaded) {
            code += op.type + " _v_" + op.name + "[" + k + "];\n";
        }
    }
    code += "#pragma unroll\nfor (int _k = 0; _k < " + k + "; ++_k) {\n";
    code += "    " + position + ";\n    if (" + present + ") {\n";
    for (const auto& op : operands) {
        if (op.loaded) {
            code += "        _v_" + op.name + "[_k] = " + loop_element(op, offset_of(op)) + ";\n";
        }
    }
    code += "    }\n}\n";
    return code;
}

std::string plain_contiguous(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    std::string code = "for (" + ix + " i = blockIdx.x * (" + ix +
                       ")blockDim.x + threadIdx.x; i < (" + ix + ")_n; i += (" + ix +
                       ")gridDim.x * blockDim.x) {\n";
    code +=
        indented(memory_bindings(
                     operands, [&](const LoopOperand& op) { return contiguous_offset(op, shape); }),
                 4);
    return code + "    " + shape.operation + ";\n}\n";
}

// Each thread takes K elements a step, blockDim.x apart so that every load stays coalesced.
std::string ahead_contiguous(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    const std::string k = std::to_string(shape.elements_per_thread);
    const auto offset_of = [&](const LoopOperand& op) { return contiguous_offset(op, shape); };
    const std::string position = "const " + ix + " i = _first + _k * (" + ix + ")blockDim.x";
    const std::string present = "i < (" + ix + ")_n";
    std::string code = "for (" + ix + " _first = blockIdx.x * (" + ix + ")blockDim.x * " + k +
                       " + threadIdx.x; _first < (" + ix + ")_n; _first += (" + ix +
                       ")gridDim.x * blockDim.x * " + k + ") {\n";
    code += indented(ahead_loads(operands, shape, position, present, offset_of), 4);
    code += "    #pragma unroll\n    for (int _k = 0; _k < " + k + "; ++_k) {\n";
    code += "        " + position + ";\n        if (" + present + ") {\n";
    code += indented(ahead_bindings(operands, offset_of), 12);
    code += "            " + shape.operation + ";\n        }\n    }\n}\n";
    return code;
}

// Strided, any rank: every element unravelled from i.
std::string plain_strided(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    const std::string ndim = std::to_string(shape.ndim);
    std::string code = "for (" + ix + " i = blockIdx.x * (" + ix +
                       ")blockDim.x + threadIdx.x; i < (" + ix + ")_n; i += (" + ix +
                       ")gridDim.x * blockDim.x) {\n";
    code += "    " + ix + " _r = i";
    for (const auto& op : operands) {
        code += ", _o_" + op.name + " = 0";
    }
    code += ";\n    for (int _d = " + ndim + " - 1; _d >= 0; --_d) {\n";
    code += "        const " + ix + " _k = _r % (" + ix + ")_shape.v[_d];\n";
    code += "        _r /= (" + ix + ")_shape.v[_d];\n";
    for (const auto& op : operands) {
        code += "        _o_" + op.name + " += _k * _s_" + op.name + ".v[_d];\n";
    }
    code += "    }\n";
    code += indented(
        memory_bindings(operands, [](const LoopOperand& op) { return "_o_" + op.name; }), 4);
    return code + "    " + shape.operation + ";\n}\n";
}

// One row, a thread per element, stepping by blockDim.x.
std::string plain_row(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    std::string code =
        "for (" + ix + " _c = threadIdx.x; _c < (" + ix + ")_row_length; _c += blockDim.x) {\n";
    code += "    const " + ix + " i = _row * (" + ix + ")_row_length + _c;\n";
    code += indented(
        memory_bindings(operands, [&](const LoopOperand& op) { return row_offset(op, shape); }), 4);
    return code + "    " + shape.operation + ";\n}\n";
}

// One row, K elements a thread per step, blockDim.x apart.
std::string ahead_row(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    const std::string k = std::to_string(shape.elements_per_thread);
    const auto offset_of = [&](const LoopOperand& op) { return row_offset(op, shape); };
    const std::string position = "const " + ix + " _c = _first + _k * (" + ix + ")blockDim.x";
    const std::string present = "_c < (" + ix + ")_row_length";
    std::string code = "for (" + ix + " _first = threadIdx.x; _first < (" + ix +
                       ")_row_length; _first += (" + ix + ")blockDim.x * " + k + ") {\n";
    code += indented(ahead_loads(operands, shape, position, present, offset_of), 4);
    code += "    #pragma unroll\n    for (int _k = 0; _k < " + k + "; ++_k) {\n";
    code += "        " + position + ";\n        if (" + present + ") {\n";
    code += "            const " + ix + " i = _row * (" + ix + ")_row_length + _c;\n";
    code += indented(ahead_bindings(operands, offset_of), 12);
    code += "            " + shape.operation + ";\n        }\n    }\n}\n";
    return code;
}

// Row mode: a block per row, the row unravelled once.
std::string rows(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    std::string code = "const int _last = " + std::to_string(shape.ndim) + " - 1;\n";
    code += "const " + ix + " _rows = (" + ix + ")(_n / _row_length);\n";
    code += "for (" + ix + " _row = blockIdx.x; _row < _rows; _row += gridDim.x) {\n";
    code += indented(row_start(operands, shape), 4);
    if (shape.elements_per_thread == 1) {
        return code + indented(plain_row(operands, shape), 4) + "}\n";
    }
    code += "    if (_ahead) {\n" + indented(ahead_row(operands, shape), 8);
    code += "    } else {\n" + indented(plain_row(operands, shape), 8) + "    }\n}\n";
    return code;
}

// The byte offset of element (row, column) of a 2-d operand.
std::string offset_2d(const std::string& name, const std::string& row, const std::string& column,
                      const std::string& index) {
    std::string offset = row;
    offset.append(" * (").append(index).append(")_s_").append(name).append(".v[0] + ");
    offset.append(column).append(" * (").append(index).append(")_s_").append(name);
    return offset.append(".v[1]");
}

// Tiled mode (2-d): 32x32 tiles; each loaded operand is staged through shared memory, read along
// whichever axis it is contiguous in, so that both its reads and the outputs' writes coalesce.
std::string tiles(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    // The block's warps of 32 take a tile's rows in turn, a fixed count each, so that every row's
    // load is issued before the first arrives.
    const int warps = elementwise_block / 32;
    const std::string loop_over_rows =
        "    #pragma unroll\n    for (int _j = 0; _j < " + std::to_string(32 / warps) +
        "; ++_j) {\n" + "        const int _k = _ty + _j * " + std::to_string(warps) + ";\n";
    std::string code = "extern __shared__ kiln_tile_unit _kiln_tile[];\n";
    code += "const int _tx = threadIdx.x % 32;\nconst int _ty = threadIdx.x / 32;\n";
    std::size_t offset = 0;
    for (const auto& op : operands) {
        if (op.loaded) {
            code += op.type + " (*_t_" + op.name + ")[33] = reinterpret_cast<" + op.type +
                    " (*)[33]>(reinterpret_cast<char*>(_kiln_tile) + " + std::to_string(offset) +
                    ");\n";
            offset += tile_bytes(op.itemsize);
        }
    }
    code += "const " + ix + " _height = (" + ix + ")_shape.v[0];\n";
    code += "const " + ix + " _width = (" + ix + ")_shape.v[1];\n";
    code += "const " + ix + " _tiles = (" + ix + ")_tile_columns * ((_height + 31) / 32);\n";
    code += "for (" + ix + " _tile = blockIdx.x; _tile < _tiles; _tile += gridDim.x) {\n";
    code += "    const " + ix + " _r0 = _tile / (" + ix + ")_tile_columns * 32;\n";
    code += "    const " + ix + " _c0 = _tile % (" + ix + ")_tile_columns * 32;\n";
    for (const auto& op : operands) {
        if (!op.loaded) {
            continue;
        }
        const std::string& n = op.name;
        code.append("    const bool _down_").append(n).append(" = kiln_magnitude(_s_").append(n);
        code.append(".v[0]) < kiln_magnitude(_s_").append(n).append(".v[1]);\n");
        // Every load of the tile first, into registers, then the shared-memory stores.
        std::string at = "        const int _y = _down_";
        at.append(n).append(" ? _tx : _k;\n        const int _x = _down_").append(n);
        at.append(" ? _k : _tx;\n        if (_r0 + _y < _height && _c0 + _x < _width) {\n");
        code += "    " + op.type + " _v_" + n + "[" + std::to_string(32 / warps) + "];\n";
        code.append(loop_over_rows).append(at).append("            _v_").append(n);
        code += "[_j] = " + loop_element(op, offset_2d(n, "(_r0 + _y)", "(_c0 + _x)", ix)) +
                ";\n        }\n    }\n";
        code.append(loop_over_rows).append(at).append("            _t_").append(n);
        code.append("[_y][_x] = _v_").append(n).append("[_j];\n        }\n    }\n");
    }
    code += "    __syncthreads();\n";
    code += loop_over_rows;
    code += "        const " + ix + " _r = _r0 + _k;\n";
    code += "        const " + ix + " _c = _c0 + _tx;\n";
    code += "        if (_r < _height && _c < _width) {\n";
    code += "            const " + ix + " i = _r * _width + _c;\n";
    for (const auto& op : operands) {
        code += "            " + loop_type(op) + "& " + op.name + " = " +
                (op.loaded ? "_t_" + op.name + "[_k][_tx]"
                           : loop_element(op, offset_2d(op.name, "_r", "_c", ix))) +
                ";\n";
    }
    code += "            " + shape.operation + ";\n        }\n    }\n    __syncthreads();\n}\n";
    return code;
}

std::string alias_check(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    std::string test;
    for (const auto& op : operands) {
        if (!op.loaded) {
            continue;
        }
        for (const auto& pointer : shape.writable) {
            test += (test.empty() ? "" : " && ") + pointer + " != _p_" + op.name;
        }
    }
    // Reading ahead is only safe when the operation cannot write what it has not read yet: with an
    // output or a writable input on the same memory, `y = 0; y += x` must see the new x.
    return "const bool _ahead = " + (test.empty() ? std::string("true") : test) + ";\n";
}

}  // namespace

std::size_t tile_bytes(std::size_t itemsize) {
    constexpr std::size_t elements = std::size_t{32} * 33;
    return (elements * itemsize + 15) / 16 * 16;
}

std::string elementwise_loops(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const bool ahead = shape.elements_per_thread > 1;
    std::string code = ahead || shape.tiled ? alias_check(operands, shape) : "";
    if (shape.contiguous) {
        if (!ahead) {
            return indented(code + plain_contiguous(operands, shape), 4);
        }
        return indented(code + "if (_ahead) {\n" + indented(ahead_contiguous(operands, shape), 4) +
                            "} else {\n" + indented(plain_contiguous(operands, shape), 4) + "}\n",
                        4);
    }
    code += "if (_row_length != 0) {\n" + indented(rows(operands, shape), 4);
    if (shape.tiled) {
        code +=
            "} else if (_tile_columns != 0 && _ahead) {\n" + indented(tiles(operands, shape), 4);
    }
    return indented(code + "} else {\n" + indented(plain_strided(operands, shape), 4) + "}\n", 4);
}

}  // namespace kiln::detail::gpu_dialect
