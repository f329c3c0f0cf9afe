// The Kokkos execution space every CPU reference runs on.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kiln::bench::reference {

using Space = Kokkos::DefaultHostExecutionSpace;
using Range = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;

}  // namespace kiln::bench::reference
