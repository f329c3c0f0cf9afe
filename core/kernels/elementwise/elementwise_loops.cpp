#include "elementwise_loops.hpp"

namespace kiln::detail {

std::string loop_type(const LoopOperand& op) {
    return (op.loaded ? "const " : "") + op.type;
}

std::string loop_element(const LoopOperand& op, const std::string& offset) {
    return "*reinterpret_cast<" + loop_type(op) + "*>(_p_" + op.name + " + " + offset + ")";
}

std::string indented(const std::string& text, int spaces) {
    const std::string pad(static_cast<std::size_t>(spaces), ' ');
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        out += pad + text.substr(start, end - start + 1);
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return out;
}

std::string contiguous_offset(const LoopOperand& op, const LoopShape& shape) {
    return "i * (" + shape.index + ")sizeof(" + op.type + ")";
}

std::string row_offset(const LoopOperand& op, const LoopShape& shape) {
    return "_q_" + op.name + " + _c * (" + shape.index + ")_s_" + op.name + ".v[_last]";
}

std::string memory_bindings(const std::vector<LoopOperand>& operands,
                            const std::function<std::string(const LoopOperand&)>& offset_of) {
    std::string code;
    for (const auto& op : operands) {
        code += loop_type(op) + "& " + op.name + " = " + loop_element(op, offset_of(op)) + ";\n";
    }
    return code;
}

std::string row_start(const std::vector<LoopOperand>& operands, const LoopShape& shape) {
    const std::string& ix = shape.index;
    std::string code = ix + " _r = _row";
    for (const auto& op : operands) {
        code += ", _q_" + op.name + " = 0";
    }
    code += ";\nfor (int _d = _last - 1; _d >= 0; --_d) {\n";
    code += "    const " + ix + " _k = _r % (" + ix + ")_shape.v[_d];\n";
    code += "    _r /= (" + ix + ")_shape.v[_d];\n";
    for (const auto& op : operands) {
        code += "    _q_" + op.name + " += _k * _s_" + op.name + ".v[_d];\n";
    }
    return code + "}\n";
}

}  // namespace kiln::detail
