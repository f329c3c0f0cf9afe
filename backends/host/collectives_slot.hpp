// The host backend's library of collectives. Ranks of one process (its host devices) meet in
// shared memory (in_process_collectives.hpp); ranks of several processes meet over MPI, which
// libkiln never links: libkiln_mpi (CMake: kiln::mpi) installs it the first time
// kiln::distributed::from_mpi runs on this backend. A communicator takes the in-process library
// when its id was made in this process, and MPI otherwise.
#pragma once

#include "../../core/distributed/collectives.hpp"

namespace kiln::detail::host {

// Makes `library` the host backend's collectives between processes from now on (it outlives
// the process).
void install_collectives(Collectives& library);

// The host backend's collectives: in-process, and between processes once installed.
[[nodiscard]] Collectives& installed_collectives();

}  // namespace kiln::detail::host
