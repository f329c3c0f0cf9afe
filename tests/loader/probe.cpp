// kiln-loader-probe: says which backend kiln chose, which vendor library files it loaded, why it
// sees no device, whether it can compile a kernel for the backend's CI target, and whether its
// library of collectives (NCCL, RCCL) gives a communicator id. The loader tests run it with the
// vendor libraries hidden in turn.
#include "core/backend.hpp"
#include "core/backend_traits.hpp"
#include "core/compile/compile_cache.hpp"

#include <kiln/kiln.hpp>

#include <iostream>

int main() {
    try {
        auto& backend = kiln::detail::backend();
        std::cout << "backend: " << kiln::to_string(backend.kind()) << '\n';
        for (const auto& library : backend.libraries()) {
            std::cout << "library " << library.name << ": "
                      << (library.path.empty() ? "not found" : library.path) << '\n';
        }
        std::cout << "no device: " << kiln::no_device_reason() << '\n';
        const std::string target(kiln::detail::traits(backend.kind()).offline_target);
        const auto binary = kiln::detail::compile_uncached(
            {"extern \"C\" __global__ void probe(int* x) { *x = 1; }", "probe", {}, {}}, target);
        std::cout << "compiled for " << target << ": " << binary.image.size() << " bytes\n";
    } catch (const kiln::Error& e) {
        std::cout << "cannot compile: " << e.what() << '\n';
    }
    try {
        (void)kiln::distributed::Communicator::unique_id();
        std::cout << "communicator: unique id made\n";
    } catch (const kiln::Error& e) {
        std::cout << "communicator: " << e.what() << '\n';
    }
    return 0;
}
