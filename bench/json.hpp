// A small JSON value for kiln-bench's results file: built in memory, written once, indented.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kiln::bench {

class Json {
public:
    using Array = std::vector<Json>;
    using Object = std::vector<std::pair<std::string, Json>>;

    Json() = default;                                                        // null
    Json(bool value) : value_(value) {}                                      // NOLINT(*-explicit-*)
    Json(double value) : value_(value) {}                                    // NOLINT(*-explicit-*)
    Json(int value) : value_(static_cast<std::int64_t>(value)) {}            // NOLINT(*-explicit-*)
    Json(std::int64_t value) : value_(value) {}                              // NOLINT(*-explicit-*)
    Json(std::uint64_t value) : value_(static_cast<std::int64_t>(value)) {}  // NOLINT(*-explicit-*)
    Json(std::string value) : value_(std::move(value)) {}                    // NOLINT(*-explicit-*)
    Json(const char* value) : value_(std::string(value)) {}                  // NOLINT(*-explicit-*)
    Json(Array value) : value_(std::move(value)) {}                          // NOLINT(*-explicit-*)
    Json(Object value) : value_(std::move(value)) {}                         // NOLINT(*-explicit-*)

    // A member of an object (the value must be an object or null, which becomes one).
    void set(const std::string& key, Json value);
    // An element at the end of an array (the value must be an array or null).
    void push(Json value);

    // Two-space indented text; NaN and infinities are written as null.
    [[nodiscard]] std::string dump() const;

private:
    void write(std::string& out, int depth) const;

    std::variant<std::nullptr_t, bool, double, std::int64_t, std::string, Array, Object> value_ =
        nullptr;
};

}  // namespace kiln::bench
