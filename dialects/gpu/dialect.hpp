// The GPU dialect: CUDA and HIP kernels, one source for both (NVRTC and HIPRTC).
// docs/design.md, "Kernel dialects", lists the files every dialect has.
#pragma once

#include "../../core/codegen/kernel_dialect.hpp"

#include <string>

namespace kiln::detail::gpu_dialect {

// Threads per block of index loops and reductions (and of elementwise kernels, elementwise.hpp).
inline constexpr int block_threads = 256;
// Blocks of 256 threads resident per multiprocessor: a multiprocessor's 2048 threads, the most
// that NVIDIA's (since Volta) and AMD's CDNA hold, so that a wave keeps every thread busy.
inline constexpr int resident_blocks = 8;

// `__launch_bounds__(...) `: limits a kernel's registers so that a wave fits.
[[nodiscard]] std::string wave_launch_bounds();

// The table the backend traits name.
[[nodiscard]] const KernelDialect& dialect();

}  // namespace kiln::detail::gpu_dialect
