#include "warning.hpp"

#include <cstdio>
#include <mutex>
#include <set>

namespace kiln::detail {

bool warn_once(const std::string& topic, const std::string& message) {
    static std::mutex mutex;
    // Never destroyed: a warning may come while the process exits.
    static auto& warned = *new std::set<std::string>();
    const std::scoped_lock lock(mutex);
    if (!warned.insert(topic).second) {
        return false;
    }
    (void)std::fprintf(stderr, "kiln: warning: %s\n", message.c_str());
    return true;
}

}  // namespace kiln::detail
