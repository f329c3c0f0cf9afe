// An error found where it cannot be thrown: a Stream's destructor finds that its stream's work
// failed (on the host backend, a kernel that threw). The next Device::synchronize throws it, once,
// as it would have thrown it had the stream lived.
#pragma once

#include <exception>

namespace kiln::detail {

// Keeps `error` unless an earlier one is still unreported.
void keep_unreported_error(std::exception_ptr error) noexcept;
// Throws the kept error, if any, and forgets it.
void rethrow_unreported_error();

}  // namespace kiln::detail
