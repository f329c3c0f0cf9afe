#include "staging_plan.hpp"

#include <algorithm>
#include <thread>

namespace kiln::detail {

StagingPlan::StagingPlan(std::size_t bytes, std::size_t chunk_bytes, std::size_t slots)
    : bytes_(bytes),
      chunk_bytes_(std::max<std::size_t>(chunk_bytes, 1)),
      chunks_((bytes + chunk_bytes_ - 1) / chunk_bytes_),
      slots_(std::min(std::max<std::size_t>(slots, 1), chunks_)),
      staging_bytes_(std::min(bytes, slots_ * chunk_bytes_)) {}

StagingChunk StagingPlan::chunk(std::size_t k) const noexcept {
    const std::size_t begin = k * chunk_bytes_;
    const std::size_t slot = k % slots_;
    return {{begin, std::min(bytes_, begin + chunk_bytes_)}, slot, slot * chunk_bytes_};
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
