#include "warning.hpp"

#include "log.hpp"

#include <mutex>
#include <set>

namespace kiln::detail {

bool warn_once(const std::string& topic, const std::string& message) {
    if (!log::enabled(log::Level::warn)) {
        return false;
    }
    static std::mutex mutex;
    // Never destroyed: a warning may come while the process exits.
    static auto& warned = *new std::set<std::string>();
    const std::scoped_lock lock(mutex);
    if (!warned.insert(topic).second) {
        return false;
    }
    log::write(log::Level::warn, message);
    return true;
}

}  // namespace kiln::detail
