// The text of an errno value, safely from any thread (strerror is not).
#pragma once

#include <string>
#include <system_error>

namespace kiln::detail::host {

[[nodiscard]] inline std::string error_text(int code) {
    return std::system_category().message(code);
}

}  // namespace kiln::detail::host
