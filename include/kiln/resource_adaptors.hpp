/// @file
/// Memory resources that wrap another one (their upstream) to count, cap or log what passes
/// through, like RMM's statistics, limiting and logging adaptors. They compose: a pool over a
/// limit over the device resource, statistics over the pool.
///
/// Each adaptor holds its upstream by reference, as RMM does: the upstream must outlive the
/// adaptor, and the adaptor never owns or frees it.
#pragma once

#include <kiln/memory_resource.hpp>
#include <kiln/stream_view.hpp>

#include <atomic>
#include <cstddef>
#include <limits>
#include <mutex>
#include <ostream>
#include <string>

namespace kiln {

/// What a StatisticsResource has seen, in the bytes its callers asked for (before any rounding
/// the upstream applies).
struct Statistics {
    std::size_t current_bytes = 0;        ///< allocated and not yet freed
    std::size_t peak_bytes = 0;           ///< the most current_bytes has been since the last reset
    std::size_t total_allocations = 0;    ///< allocations ever made
    std::size_t current_allocations = 0;  ///< allocations not yet freed
};

/// Counts the allocations that pass through it. Thread-safe.
class StatisticsResource final : public MemoryResource {
public:
    /// Counts what passes to `upstream`, which must outlive it.
    explicit StatisticsResource(MemoryResource& upstream) noexcept : upstream_(upstream) {}

    /// The wrapped resource.
    [[nodiscard]] MemoryResource& upstream() const noexcept { return upstream_; }
    /// A consistent snapshot of the counters.
    [[nodiscard]] Statistics statistics() const;
    /// Sets peak_bytes to current_bytes.
    void reset_peak();

private:
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;

    MemoryResource& upstream_;
    mutable std::mutex mutex_;
    Statistics statistics_;
};

/// Caps the bytes held from its upstream: an allocation that would take the bytes in use past the
/// limit throws OutOfMemory(requested, used, limit) without reaching the upstream. Counts the
/// bytes its callers ask for. Thread-safe.
///
/// The limit is a plain cap, as in RMM's limiting adaptor: 0 allows nothing, and no_limit is
/// spelled out. Only MemoryPool and KILN_GPU_MEMORY_LIMIT, which mirror CuPy's API, read 0 as
/// "no limit": a building block that gave one value two meanings would make limit() - used()
/// and the limit OutOfMemory reports wrong for whoever composes it.
class LimitResource final : public MemoryResource {
public:
    /// The limit meaning "no limit"; it is the default.
    static constexpr std::size_t no_limit = std::numeric_limits<std::size_t>::max();

    /// Passes allocations to `upstream` (which must outlive it) while used() stays within `limit`.
    explicit LimitResource(MemoryResource& upstream, std::size_t limit = no_limit) noexcept
        : upstream_(upstream), limit_(limit) {}

    /// The wrapped resource.
    [[nodiscard]] MemoryResource& upstream() const noexcept { return upstream_; }
    /// The limit in bytes (no_limit: none).
    [[nodiscard]] std::size_t limit() const noexcept { return limit_.load(); }
    /// A limit below used() frees nothing; it refuses allocations until enough is freed.
    void set_limit(std::size_t limit) noexcept { limit_.store(limit); }
    /// The bytes allocated through this resource and not yet freed.
    [[nodiscard]] std::size_t used() const noexcept { return used_.load(); }

private:
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;

    MemoryResource& upstream_;
    std::atomic<std::size_t> limit_;
    std::atomic<std::size_t> used_{0};
};

/// Writes one line to `log` for every allocate and deallocate that reaches it. Thread-safe: lines
/// are written whole, under a lock. The lines are
///     allocate ptr=0x7f3a00000000 bytes=400 stream=default
///     allocate failed bytes=400 stream=0x55d2c0a1e2f0
///     deallocate ptr=0x7f3a00000000 bytes=400 stream=default
/// A deallocate line is written before the upstream frees the memory, so it always precedes the
/// line of an allocation that reuses that memory. The stream is not flushed.
class LoggingResource final : public MemoryResource {
public:
    /// `log` must outlive the resource.
    LoggingResource(MemoryResource& upstream, std::ostream& log) noexcept
        : upstream_(upstream), log_(log) {}

    /// The wrapped resource.
    [[nodiscard]] MemoryResource& upstream() const noexcept { return upstream_; }

private:
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;
    void write_line(const std::string& line);

    MemoryResource& upstream_;
    std::ostream& log_;
    std::mutex mutex_;
};

}  // namespace kiln
