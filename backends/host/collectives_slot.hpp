// The host backend's library of collectives. It runs over MPI, which libkiln never links:
// libkiln_mpi (CMake: kiln::mpi) installs it the first time kiln::distributed::from_mpi runs on
// this backend. Until then a Communicator on the host backend is NoDevice, saying how to get one.
#pragma once

#include "../../core/distributed/collectives.hpp"

namespace kiln::detail::host {

// Makes `library` the host backend's collectives from now on (it outlives the process).
void install_collectives(Collectives& library);

// The installed library; NoDevice, saying how to install one, when there is none.
[[nodiscard]] Collectives& installed_collectives();

}  // namespace kiln::detail::host
