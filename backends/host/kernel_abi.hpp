// How libkiln calls a kernel compiled for the host: every kernel's shared object exports, under
// the kernel's name, a descriptor of its parameters and an entry point that runs a range of the
// launch's blocks. kiln's device header kiln/host.h (core/codegen/device_header_host.cpp) spells
// the same layout for the kernel's side; `abi` guards against a mismatch.
#pragma once

#include <array>

namespace kiln::detail::host {

inline constexpr unsigned kernel_abi_version = 1;

// One call of a kernel's entry point: the launch's shape, and the blocks [first, end) to run, by
// linear index (x fastest, then y, then z).
struct LaunchGrid {
    std::array<unsigned, 3> grid;  // laid out as the kernel's unsigned x, y, z
    std::array<unsigned, 3> block;
    unsigned long long shared_bytes;
    unsigned long long first;
    unsigned long long end;
};

using KernelEntry = void (*)(void* const* args, const LaunchGrid* grid);

struct KernelDescriptor {
    unsigned abi;
    unsigned count;  // parameters
    const unsigned* sizes;
    const unsigned* alignments;
    KernelEntry entry;
};

}  // namespace kiln::detail::host
