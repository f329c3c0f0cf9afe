// How a transfer through pinned staging is cut: chunks that take turns in a bounded ring of
// staging slots, and each chunk's shares for the host threads that copy it. Pure arithmetic, so
// it is tested without a device.
#pragma once

#include <cstddef>
#include <vector>

namespace kiln::detail {

struct ByteRange {
    std::size_t begin = 0;
    std::size_t end = 0;
    [[nodiscard]] std::size_t size() const noexcept { return end - begin; }
};

// One chunk of a transfer: where it lies in the transfer and in the staging buffer.
struct StagingChunk {
    ByteRange range;          // in the source and target of the transfer
    std::size_t slot = 0;     // which slot of the ring stages it
    std::size_t staging = 0;  // the slot's offset in the staging buffer
};

class StagingPlan {
public:
    // 16 MiB chunks: downloads measured best with them (docs/perf.md); four of them let the host
    // copy run up to three chunks ahead of the DMA (or behind it, downloading) while a transfer
    // of any size pins at most 64 MiB.
    static constexpr std::size_t default_chunk_bytes = std::size_t{16} << 20;
    static constexpr std::size_t default_slots = 4;

    // A transfer that fills the ring starts and ends with chunks of 1/8, 1/4 and 1/2 of a slot
    // (and their mirror at the end): nothing overlaps the first chunk's first stage or the last
    // chunk's second, so short chunks there shorten the whole transfer.
    explicit StagingPlan(std::size_t bytes, std::size_t chunk_bytes = default_chunk_bytes,
                         std::size_t slots = default_slots);

    [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
    [[nodiscard]] std::size_t chunks() const noexcept { return ends_.size(); }
    // Slots in use: the ring's size, or fewer when the transfer has fewer chunks.
    [[nodiscard]] std::size_t slots() const noexcept { return slots_; }
    // The pinned bytes the transfer needs: min(bytes, slots * chunk_bytes).
    [[nodiscard]] std::size_t staging_bytes() const noexcept { return staging_bytes_; }

    // Chunk k < chunks(). Chunk k reuses the slot of chunk k - slots(), which must have left it.
    [[nodiscard]] StagingChunk chunk(std::size_t k) const noexcept;

private:
    std::size_t bytes_;
    std::size_t chunk_bytes_;
    std::vector<std::size_t> ends_;  // where each chunk ends in the transfer
    std::size_t slots_;
    std::size_t staging_bytes_;
};

// Worker w's share of `range` (w < workers): consecutive, cache-line-aligned pieces that tile it.
[[nodiscard]] ByteRange share(ByteRange range, unsigned w, unsigned workers) noexcept;

// How many host threads copy a transfer of `bytes`: one below 16 MiB, where starting threads
// costs more than it saves; else half the hardware threads, at most 8.
[[nodiscard]] unsigned staging_workers(std::size_t bytes) noexcept;

}  // namespace kiln::detail
