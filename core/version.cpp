#include <kiln/version.hpp>

namespace kiln {

std::string_view version() noexcept {
    return KILN_VERSION;
}

}  // namespace kiln
