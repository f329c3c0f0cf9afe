// kiln-bench's results file: nlohmann's JSON, with members kept in the order they were set so
// that the file reads in a fixed order (bench/cupy_compare.py and bench/plot.py read it).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace kiln::bench {

using Json = nlohmann::ordered_json;

// Two-space indented text and a final newline. NaN and infinities are written as null; bytes
// that are not UTF-8 (a device name, a compiler's log) become U+FFFD rather than an exception.
[[nodiscard]] inline std::string dump(const Json& value) {
    return value.dump(2, ' ', false, Json::error_handler_t::replace) + '\n';
}

}  // namespace kiln::bench
