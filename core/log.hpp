// kiln's log on stderr, at the level KILN_LOG names (error, warn, info or debug; warn when unset).
// Messages are formatted with {fmt} only when their level is on, so a call on a hot path costs one
// comparison while logging is off. spdlog writes them; neither library reaches a public header.
#pragma once

#include <fmt/format.h>

#include <string_view>
#include <utility>

namespace kiln::detail::log {

enum class Level { error, warn, info, debug };

// Whether messages of `level` are printed: KILN_LOG, read once per process.
[[nodiscard]] bool enabled(Level level) noexcept;

// Prints "kiln: <level>: <message>" on stderr, whatever the level.
void write(Level level, std::string_view message) noexcept;

template <class... Args>
void print(Level level, fmt::format_string<Args...> format, Args&&... args) {
    if (enabled(level)) {
        write(level, fmt::format(format, std::forward<Args>(args)...));
    }
}

template <class... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
    print(Level::warn, format, std::forward<Args>(args)...);
}

template <class... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
    print(Level::info, format, std::forward<Args>(args)...);
}

template <class... Args>
void debug(fmt::format_string<Args...> format, Args&&... args) {
    print(Level::debug, format, std::forward<Args>(args)...);
}

}  // namespace kiln::detail::log
