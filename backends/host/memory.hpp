// Device memory of the host backend: host memory, aligned as the GPU runtimes align theirs, so
// that generated loops may use aligned vector loads and kiln's layout checks hold unchanged.
#pragma once

#include <cstddef>
#include <utility>

namespace kiln::detail::host {

// The alignment of every allocation: cudaMalloc's 256 bytes, a multiple of any vector width.
inline constexpr std::size_t allocation_alignment = 256;

// `bytes` (0 gives a distinct, valid pointer), or OutOfMemory with the machine's figures.
[[nodiscard]] void* allocate(std::size_t bytes);
void deallocate(void* ptr) noexcept;

// Available and total physical memory, in bytes (MemAvailable and MemTotal of /proc/meminfo).
[[nodiscard]] std::pair<std::size_t, std::size_t> memory_info();

}  // namespace kiln::detail::host
