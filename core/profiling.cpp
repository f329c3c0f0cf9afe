#include "profiling.hpp"

#include "backend.hpp"
#include "env.hpp"

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

ProfileRange::ProfileRange(const char* name) noexcept : open_(profiling_enabled()) {
    if (open_) {
        backend().range_push(name);
    }
}

ProfileRange::~ProfileRange() {
    if (open_) {
        backend().range_pop();
    }
}

}  // namespace kiln::detail
