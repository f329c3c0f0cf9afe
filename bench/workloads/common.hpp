// Helpers the workload files share.
#pragma once

#include "../record.hpp"

#include <kiln/shape.hpp>

#include <cstdint>
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

// "64MiB", "1GiB": a whole number of MiB or GiB, for row names.
[[nodiscard]] inline std::string bytes_text(std::int64_t bytes) {
    return bytes >= (std::int64_t{1} << 30) ? std::to_string(bytes >> 30) + "GiB"
                                            : std::to_string(bytes >> 20) + "MiB";
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
