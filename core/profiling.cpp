#include "profiling.hpp"

#include "backend.hpp"
#include "env.hpp"

#include <kiln/error.hpp>

namespace kiln::detail {

bool profiling_enabled() noexcept {
    static const bool enabled = [] {
        try {
            return env::get("KILN_PROFILE").has_value();
        } catch (...) {
            return false;
        }
    }();
    return enabled;
}

ProfileRange::ProfileRange(const char* name) noexcept {
    if (!profiling_enabled()) {
        return;
    }
    try {
        backend().range_push(name);
        open_ = true;
    } catch (const Error&) {  // no GPU backend: nothing to mark
    }
}

ProfileRange::~ProfileRange() {
    if (open_) {
        backend().range_pop();
    }
}

}  // namespace kiln::detail
