// The vendor's own kernel launch, reached through its driver library at run time (no link-time
// dependency), so that kiln-bench can time a launch with nothing of kiln's around it: the floor
// under every kernel class's host time.
#pragma once

#include <kiln/backend.hpp>
#include <kiln/raw_kernel.hpp>
#include <kiln/stream_view.hpp>

#include <string>
#include <vector>

namespace kiln::bench {

class DriverLaunch {
public:
    // Loads `image`, a code object for the current device, and finds `kernel` in it. Throws
    // kiln::Error naming the call when the driver library or a call into it fails.
    DriverLaunch(BackendKind backend, const std::vector<char>& image, const std::string& kernel);

    // Launches on `stream`; `args` as the vendor's launch takes them. Throws kiln::Error on
    // failure.
    void operator()(Dim3 grid, Dim3 block, void** args, StreamView stream) const;

private:
    using Launch = int (*)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, void*, void**, void**);
    Launch launch_ = nullptr;
    void* function_ = nullptr;
};

}  // namespace kiln::bench
