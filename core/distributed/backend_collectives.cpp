// The default for backends that carry no library of collectives.
#include "../backend.hpp"

#include <kiln/error.hpp>

#include <string>

namespace kiln::detail {

Collectives& Backend::collectives() {
    throw NoDevice("kiln: Communicator: the " + std::string(to_string(kind())) +
                   " backend has no library of collectives");
}

}  // namespace kiln::detail
