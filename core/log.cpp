#include "log.hpp"

#include "env.hpp"

#include <fmt/ranges.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <array>
#include <memory>
#include <string>

namespace kiln::detail::log {

namespace {

constexpr std::array<std::string_view, 4> level_names{"error", "warn", "info", "debug"};

spdlog::level::level_enum to_spdlog(Level level) noexcept {
    switch (level) {
        case Level::error:
            return spdlog::level::err;
        case Level::warn:
            return spdlog::level::warn;
        case Level::info:
            return spdlog::level::info;
        case Level::debug:
            return spdlog::level::debug;
    }
    return spdlog::level::err;
}

spdlog::logger& logger() {
    // Never destroyed, and kept out of spdlog's registry: a message may come while the process
    // exits, after spdlog's own objects are gone.
    static auto& instance = []() -> spdlog::logger& {
        auto* made = new spdlog::logger("kiln", std::make_shared<spdlog::sinks::stderr_sink_mt>());
        made->set_pattern("kiln: %l: %v");
        made->set_level(spdlog::level::trace);
        return *made;
    }();
    return instance;
}

Level level_from_environment() {
    const auto text = env::get("KILN_LOG");
    if (!text) {
        return Level::warn;
    }
    for (std::size_t i = 0; i < level_names.size(); ++i) {
        if (*text == level_names.at(i)) {
            return static_cast<Level>(i);
        }
    }
    write(Level::warn, fmt::format("KILN_LOG='{}' is not a log level; expected {}; using warn",
                                   *text, fmt::join(level_names, ", ")));
    return Level::warn;
}

}  // namespace

bool enabled(Level level) noexcept {
    // Read once: the warning about a bad value comes once, and later checks are one comparison.
    static const Level threshold = [] {
        try {
            return level_from_environment();
        } catch (...) {
            return Level::warn;
        }
    }();
    return level <= threshold;
}

void write(Level level, std::string_view message) noexcept {
    try {
        logger().log(to_spdlog(level), message);
    } catch (...) {
        // Out of memory while logging: the message is lost, the call that logged goes on.
    }
}

}  // namespace kiln::detail::log
