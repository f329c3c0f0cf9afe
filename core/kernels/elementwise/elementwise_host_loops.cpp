#include "elementwise_loops.hpp"

namespace kiln::detail {

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

// Strided: the range in pieces of innermost rows, each row's start unravelled once.
std::string strided(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    std::string code = "const int _last = " + std::to_string(shape.ndim) + " - 1;\n";
    code += "const " + ix + " _cols = (" + ix + ")_shape.v[_last];\n";
    code += "for (" + ix + " _i = _lo; _i < _hi;) {\n";
    code += "    const " + ix + " _row = _i / _cols;\n";
    code += "    const " + ix + " _c0 = _i - _row * _cols;\n";
    code += "    const " + ix + " _c1 = _hi - _i < _cols - _c0 ? _c0 + (_hi - _i) : _cols;\n";
    code += indented(row_start(operands, shape), 4);
    code += "    for (" + ix + " _c = _c0; _c < _c1; ++_c) {\n";
    code += "        const " + ix + " i = _row * _cols + _c;\n";
    code += indented(
        memory_bindings(operands, [&](const LoopOperand& op) { return row_offset(op, shape); }), 8);
    code += "        " + shape.operation + ";\n    }\n";
    return code + "    _i += _c1 - _c0;\n}\n";
}

}  // namespace

std::string elementwise_host_loops(const std::vector<LoopOperand>& operands,
                                   const LoopShape& shape) {
    return indented(element_range(shape) +
                        (shape.contiguous ? contiguous(operands, shape) : strided(operands, shape)),
                    4);
}

}  // namespace kiln::detail
