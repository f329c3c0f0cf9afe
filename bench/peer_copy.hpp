// The vendor's own copy from one device's memory to another's, reached at run time as
// driver_launch.cpp reaches the driver (no link-time dependency), so that kiln-bench can time
// kiln's copies between devices beside it: CUDA's cuMemcpyPeerAsync between the devices' primary
// contexts (the driver call under the runtime's cudaMemcpyPeerAsync), HIP's hipMemcpyPeerAsync,
// and on the host backend a memcpy queued on the stream (what its devices' copies are).
#pragma once

#include <kiln/backend.hpp>
#include <kiln/stream_view.hpp>

#include <cstddef>
#include <functional>
#include <string>

namespace kiln::bench {

class PeerCopy {
public:
    // Copies from device `source` to device `target` of `backend`. Throws kiln::Error naming the
    // library or call that failed.
    PeerCopy(BackendKind backend, int target, int source);

    // Queues `bytes` from `src` (on the source device) to `dst` (on the target device) on
    // `stream`, a stream of the target device. Throws kiln::Error on failure.
    void operator()(void* dst, const void* src, std::size_t bytes, StreamView stream) const;

    // The call it makes, for the results.
    [[nodiscard]] const std::string& name() const noexcept { return name_; }

private:
    std::string name_;
    std::function<int(void*, const void*, std::size_t, void*)> copy_;
};

}  // namespace kiln::bench
