// Helpers the workload files share.
#pragma once

#include "../record.hpp"

#include <kiln/shape.hpp>

#include <cstdint>
#include <string>
#include <utility>

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

// "64MiB", "1GiB", "671088B": bytes in the largest unit that divides them, for row names.
[[nodiscard]] inline std::string bytes_text(std::int64_t bytes) {
    for (const auto& [shift, unit] : {std::pair{30, "GiB"}, {20, "MiB"}, {10, "KiB"}}) {
        const std::int64_t size = std::int64_t{1} << shift;
        if (bytes >= size && bytes % size == 0) {
            return std::to_string(bytes / size) + unit;
        }
    }
    return std::to_string(bytes) + "B";
}

// A row named with bytes_text(nominal), renamed for the bytes that ran (--size-scale); its
// full-size name keeps the nominal size.
inline void name_for_bytes(Record& record, std::int64_t nominal, std::int64_t ran) {
    record.full_size_name = record.name;
    const std::string from = bytes_text(nominal);
    record.name.replace(record.name.find(from), from.size(), bytes_text(ran));
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
