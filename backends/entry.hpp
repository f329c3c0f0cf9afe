// One vendor entry point in an API table, and the single place where its result is checked.
#pragma once

#include "vendor_library.hpp"

#include <kiln/error.hpp>

#include <utility>

namespace kiln::detail {

// A function linked into libkiln (the static CUDA runtime, or a thin adapter in an api.hpp) plus
// the name errors report it by (the vendor's own name, even where the table holds an adapter).
template <auto Function>
struct Entry {
    const char* name;

    template <class... Args>
    auto operator()(Args&&... args) const {
        return Function(std::forward<Args>(args)...);
    }
};

// Calls an entry of `Table` and turns a failure into a BackendError naming the call. The entry
// is an Entry or a Symbol (a function resolved from a vendor library loaded at run time).
template <class Table, class E, class... Args>
void call(const E& entry, Args&&... args) {
    const auto rc = entry(std::forward<Args>(args)...);
    if (rc != Table::success) {
        throw BackendError(entry.name, static_cast<int>(rc), Table::error_text(rc));
    }
}

}  // namespace kiln::detail

// The exported name of `function` after macro expansion: ROCm's headers map some names onto
// versioned ones (hipGetDeviceProperties -> hipGetDevicePropertiesR0600), and the symbol looked
// up must be the one whose declaration checked the call.
#define KILN_SYMBOL_NAME(function) KILN_SYMBOL_NAME_TEXT(function)
#define KILN_SYMBOL_NAME_TEXT(function) #function

// clang-format off
// Declares a table member that calls `function` in the table's `library()`, resolved when the
// library is loaded; the vendor header's declaration types every call.
// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments are a name and a function, not values
#define KILN_ENTRY(member, function) KILN_ENTRY_OF_TYPE(member, function, decltype(&(function)))
// The same for an overloaded `function`: `type` (a function pointer type) picks the overload.
// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments are a name, a function and a type
#define KILN_OVERLOAD_ENTRY(member, function, type) \
    KILN_ENTRY_OF_TYPE(member, function, decltype(static_cast<type>(&(function))))
// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments are a name, a function and a type
#define KILN_ENTRY_OF_TYPE(member, function, type) \
    static inline const ::kiln::detail::Symbol<type> member{library(), KILN_SYMBOL_NAME(function)}
// Declares a table member that calls `function` linked into libkiln, reporting errors under its
// name.
// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments are a name and a function, not values
#define KILN_LINKED_ENTRY(member, function) static constexpr ::kiln::detail::Entry<&(function)> member{#function}
// The same for an overloaded `function`: `type` (a function pointer type) picks the overload.
// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments are a name, a function and a type
#define KILN_LINKED_OVERLOAD_ENTRY(member, function, type) static constexpr ::kiln::detail::Entry<static_cast<type>(&(function))> member{#function}
// clang-format on
