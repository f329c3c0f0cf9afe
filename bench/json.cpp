#include "json.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace kiln::bench {

namespace {

void write_string(std::string& out, const std::string& text) {
    out += '"';
    for (const char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\r':
                out += "\\r";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    std::array<char, 8> escaped{};
                    (void)std::snprintf(escaped.data(), escaped.size(), "\\u%04x", c);
                    out += escaped.data();
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

void write_number(std::string& out, double value) {
    if (!std::isfinite(value)) {
        out += "null";
        return;
    }
    std::array<char, 32> text{};
    (void)std::snprintf(text.data(), text.size(), "%.17g", value);
    out += text.data();
}

void indent(std::string& out, int depth) {
    out += '\n';
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
}

}  // namespace

void Json::set(const std::string& key, Json value) {
    if (std::holds_alternative<std::nullptr_t>(value_)) {
        value_ = Object{};
    }
    auto* object = std::get_if<Object>(&value_);
    if (object == nullptr) {
        throw std::logic_error("kiln-bench: Json::set: the value is not an object");
    }
    for (auto& [name, member] : *object) {
        if (name == key) {
            member = std::move(value);
            return;
        }
    }
    object->emplace_back(key, std::move(value));
}

void Json::push(Json value) {
    if (std::holds_alternative<std::nullptr_t>(value_)) {
        value_ = Array{};
    }
    auto* array = std::get_if<Array>(&value_);
    if (array == nullptr) {
        throw std::logic_error("kiln-bench: Json::push: the value is not an array");
    }
    array->push_back(std::move(value));
}

std::string Json::dump() const {
    std::string out;
    write(out, 0);
    out += '\n';
    return out;
}

void Json::write(std::string& out, int depth) const {
    if (std::holds_alternative<std::nullptr_t>(value_)) {
        out += "null";
    } else if (const auto* flag = std::get_if<bool>(&value_)) {
        out += *flag ? "true" : "false";
    } else if (const auto* real = std::get_if<double>(&value_)) {
        write_number(out, *real);
    } else if (const auto* integer = std::get_if<std::int64_t>(&value_)) {
        out += std::to_string(*integer);
    } else if (const auto* text = std::get_if<std::string>(&value_)) {
        write_string(out, *text);
    } else if (const auto* array = std::get_if<Array>(&value_)) {
        // Arrays of plain values stay on one line; arrays of objects get a line per element.
        bool nested = false;
        for (const auto& element : *array) {
            nested = nested || std::holds_alternative<Object>(element.value_) ||
                     std::holds_alternative<Array>(element.value_);
        }
        out += '[';
        for (std::size_t i = 0; i < array->size(); ++i) {
            out += i == 0 ? "" : (nested ? "," : ", ");
            if (nested) {
                indent(out, depth + 1);
            }
            (*array)[i].write(out, depth + 1);
        }
        if (nested && !array->empty()) {
            indent(out, depth);
        }
        out += ']';
    } else {
        const auto& object = std::get<Object>(value_);
        out += '{';
        for (std::size_t i = 0; i < object.size(); ++i) {
            out += i == 0 ? "" : ",";
            indent(out, depth + 1);
            write_string(out, object[i].first);
            out += ": ";
            object[i].second.write(out, depth + 1);
        }
        if (!object.empty()) {
            indent(out, depth);
        }
        out += '}';
    }
}

}  // namespace kiln::bench
