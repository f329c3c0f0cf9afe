// One vendor entry point in an API table, and the single place where its result is checked.
#pragma once

#include <kiln/error.hpp>

#include <utility>

namespace kiln::detail {

// A vendor function plus the name errors report it by (the vendor's own name, even where the
// table holds a thin adapter around it).
template <auto Function>
struct Entry {
    const char* name;

    template <class... Args>
    auto operator()(Args&&... args) const {
        return Function(std::forward<Args>(args)...);
    }
};

// Calls an entry of `Table` and turns a failure into a BackendError naming the call.
template <class Table, class E, class... Args>
void call(const E& entry, Args&&... args) {
    const auto rc = entry(std::forward<Args>(args)...);
    if (rc != Table::success) {
        throw BackendError(entry.name, static_cast<int>(rc), Table::error_text(rc));
    }
}

}  // namespace kiln::detail

// Declares a table member that calls `function` directly and reports errors under its name.
// clang-format off
// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments are a name and a function, not values
#define KILN_ENTRY(member, function) static constexpr ::kiln::detail::Entry<&(function)> member{#function}
// clang-format on
