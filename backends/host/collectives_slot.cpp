#include "collectives_slot.hpp"

#include <kiln/error.hpp>

#include <atomic>

namespace kiln::detail::host {

namespace {
std::atomic<Collectives*> installed{nullptr};
}  // namespace

void install_collectives(Collectives& library) {
    installed.store(&library, std::memory_order_release);
}

Collectives& installed_collectives() {
    Collectives* library = installed.load(std::memory_order_acquire);
    if (library == nullptr) {
        throw NoDevice(
            "kiln: Communicator: the host backend's collectives run over MPI: make the "
            "communicator with kiln::distributed::from_mpi (kiln/distributed/mpi.hpp, CMake "
            "target kiln::mpi)");
    }
    return *library;
}

}  // namespace kiln::detail::host
