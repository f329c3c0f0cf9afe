#include "staging_plan.hpp"

#include <algorithm>
#include <array>
#include <thread>

namespace kiln::detail {

namespace {

// Chunk ends for `bytes` in pieces of at most `chunk`, ramped at both ends when `ramp`.
std::vector<std::size_t> chunk_ends(std::size_t bytes, std::size_t chunk, bool ramp) {
    std::vector<std::size_t> ends;
    ends.reserve(bytes / chunk + 8);
    std::size_t at = 0;
    const auto cut = [&](std::size_t size) { ends.push_back(at += size); };
    // Divisors of the chunk: 1/8, 1/4, 1/2 going up, and the mirror coming down.
    constexpr std::array<std::size_t, 3> ramp_up = {8, 4, 2};
    constexpr std::array<std::size_t, 3> ramp_down = {2, 4, 8};
    std::size_t tail = 0;
    if (ramp) {
        for (const std::size_t divisor : ramp_up) {
            cut(chunk / divisor);
            tail += chunk / divisor;
        }
    }
    while (at + tail < bytes) {
        cut(std::min(chunk, bytes - tail - at));
    }
    if (ramp) {
        for (const std::size_t divisor : ramp_down) {
            cut(chunk / divisor);
        }
    }
    return ends;
}

}  // namespace

StagingPlan::StagingPlan(std::size_t bytes, std::size_t chunk_bytes, std::size_t slots)
    : bytes_(bytes), chunk_bytes_(std::max<std::size_t>(chunk_bytes, 1)) {
    slots = std::max<std::size_t>(slots, 1);
    // Only a transfer that fills the ring ramps, so its staging stays slots * chunk_bytes.
    const bool ramp = chunk_bytes_ >= 8 && bytes >= std::max<std::size_t>(slots, 4) * chunk_bytes_;
    ends_ = chunk_ends(bytes, chunk_bytes_, ramp);
    slots_ = std::min(slots, ends_.size());
    staging_bytes_ = std::min(bytes, slots_ * chunk_bytes_);
}

StagingChunk StagingPlan::chunk(std::size_t k) const noexcept {
    const std::size_t begin = k == 0 ? 0 : ends_[k - 1];
    const std::size_t slot = k % slots_;
    return {{begin, ends_[k]}, slot, slot * chunk_bytes_};
}

ByteRange share(ByteRange range, unsigned w, unsigned workers) noexcept {
    constexpr std::size_t line = 64;
    const std::size_t per = (range.size() / workers + line - 1) / line * line;
    const std::size_t begin = std::min(range.end, range.begin + w * per);
    return {begin, w + 1 == workers ? range.end : std::min(range.end, begin + per)};
}

unsigned staging_workers(std::size_t bytes) noexcept {
    constexpr std::size_t threaded_bytes = std::size_t{16} << 20;
    if (bytes < threaded_bytes) {
        return 1;
    }
    return std::clamp(std::thread::hardware_concurrency() / 2, 1U, 8U);
}

}  // namespace kiln::detail
