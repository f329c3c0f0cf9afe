// A stream's handle as error messages name it.
#pragma once

#include <sstream>
#include <string>

namespace kiln::detail::host {

inline std::string handle_text(void* handle) {
    std::ostringstream text;
    text << handle;
    return text.str();
}

}  // namespace kiln::detail::host
