// Warnings kiln prints itself, on stderr. Each is printed at most once per process: a setting kiln
// cannot honour makes it carry on another way, and saying so on every call would drown the output.
#pragma once

#include <string>

namespace kiln::detail {

// Prints "kiln: warning: <message>" through the log (core/log.hpp) the first time `topic` is warned
// about in this process (a topic names the setting and its value, e.g. the directory); true when
// it printed. KILN_LOG=error silences it.
bool warn_once(const std::string& topic, const std::string& message);

}  // namespace kiln::detail
