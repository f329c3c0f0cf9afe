// Helpers shared by the owning handles (Stream, Event, Graph).
#pragma once

#include <kiln/error.hpp>

#include <string>
#include <utility>

namespace kiln::detail {

// The native handle, or an Error if the owner was moved from.
inline void* require_native(void* native, const char* type) {
    if (native == nullptr) {
        throw Error(std::string("kiln: use of a moved-from ") + type);
    }
    return native;
}

// Releases a native handle from a destructor: never throws, and makes no vendor call while the
// process exits.
template <class Release>
void release_quietly(void* native, Release release) noexcept {
    if (native == nullptr) {
        return;
    }
    try {
        release(native);
    } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor cannot report it
    }
}

}  // namespace kiln::detail
