// kiln's exception messages start with "kiln: ". A message that puts its own context before
// another's drops the other's prefix, so that the prefix appears once.
#pragma once

#include <string_view>

namespace kiln::detail {

// `what` without its leading "kiln: ".
[[nodiscard]] inline std::string_view without_kiln_prefix(std::string_view what) noexcept {
    constexpr std::string_view prefix = "kiln: ";
    return what.starts_with(prefix) ? what.substr(prefix.size()) : what;
}

}  // namespace kiln::detail
