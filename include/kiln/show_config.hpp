/// @file
/// A report of how kiln is built and what it finds on this machine, for bug reports and for "why is
/// my GPU not used?", as CuPy's show_config(), Kokkos' print_configuration() and ArrayFire's
/// info(). The kiln-info program prints the same.
#pragma once

#include <iostream>

namespace kiln {

/// Prints kiln's version and backends; for each backend whether it is usable (and why not), its
/// devices and its vendor libraries with their paths and the compiler's version; the compile
/// cache's directory, its size and whether it can be used; and the environment variables kiln and
/// the vendor runtimes read that are set. A missing device, library or cache is reported, never
/// thrown.
void show_config(std::ostream& out = std::cout);

}  // namespace kiln
