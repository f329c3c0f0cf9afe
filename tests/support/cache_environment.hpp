// The compile cache's environment variables, all unset for a test and put back afterwards.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::test {

// Saves the cache's variables and unsets them; the destructor puts them back.
class ScopedEnvironment {
public:
    ScopedEnvironment() {
        for (const char* name :
             {"KILN_CACHE_DIR", "XDG_CACHE_HOME", "HOME", "KILN_CACHE_IN_MEMORY",
              "KILN_CACHE_SAVE_SOURCE", "KILN_CACHE_SIZE_LIMIT", "KILN_CACHE_MEMORY_LIMIT"}) {
            const char* value = std::getenv(name);
            saved_.emplace_back(
                name, value == nullptr ? std::nullopt : std::optional<std::string>(value));
            unsetenv(name);
        }
    }
    ~ScopedEnvironment() {
        for (const auto& [name, value] : saved_) {
            if (value) {
                setenv(name, value->c_str(), 1);
            } else {
                unsetenv(name);
            }
        }
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;
    ScopedEnvironment(ScopedEnvironment&&) = delete;
    ScopedEnvironment& operator=(ScopedEnvironment&&) = delete;

private:
    std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

}  // namespace kiln::test
