// Helpers the workload files share.
#pragma once

#include "../record.hpp"

#include <kiln/shape.hpp>

#include <string>

namespace kiln::bench {

// "8192x8192", "10000000".
[[nodiscard]] inline std::string shape_text(const Shape& shape) {
    std::string text;
    for (const auto extent : shape) {
        if (!text.empty()) {
            text += 'x';
        }
        text += std::to_string(extent);
    }
    return text.empty() ? "()" : text;
}

[[nodiscard]] inline Record make_record(std::string name, std::string description,
                                        std::string kernel_class, const Shape& shape,
                                        std::string dtype, std::string bound) {
    Record record;
    record.name = std::move(name);
    record.description = std::move(description);
    record.kernel_class = std::move(kernel_class);
    record.size = shape_text(shape);
    record.dtype = std::move(dtype);
    record.bound = std::move(bound);
    return record;
}

}  // namespace kiln::bench
