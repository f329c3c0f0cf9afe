/// @file
/// The memory pools arrays allocate from (CuPy's MemoryPool, PinnedMemoryPool, MemoryAsyncPool),
/// and the per-device allocator hook (CuPy's set_allocator).
#pragma once

#include <kiln/memory_resource.hpp>
#include <kiln/pool_resource.hpp>
#include <kiln/resource_adaptors.hpp>

#include <cstddef>
#include <memory>
#include <optional>

namespace kiln {

namespace detail {
class DeviceResource;
class PinnedResource;
class EventStreamOrder;
class NoStreamOrder;
}  // namespace detail

/// Device memory of one device, cached by a stream-aware best-fit pool under a limit. The limit
/// starts at KILN_GPU_MEMORY_LIMIT (bytes, or "N%" of the device's memory), else none. As in
/// CuPy, a limit of 0 means no limit: set_limit(0), set_limit_fraction(0),
/// KILN_GPU_MEMORY_LIMIT=0 and =0% all remove it, and get_limit() returns 0 while there is none.
class MemoryPool final : public MemoryResource {
public:
    /// A pool for `device` (default: the current device).
    explicit MemoryPool(std::optional<int> device = std::nullopt);
    ~MemoryPool() override;
    MemoryPool(const MemoryPool&) = delete;
    MemoryPool(MemoryPool&&) = delete;
    MemoryPool& operator=(const MemoryPool&) = delete;
    MemoryPool& operator=(MemoryPool&&) = delete;

    /// The device whose memory the pool holds.
    [[nodiscard]] int device() const noexcept { return device_; }
    /// Bytes handed out and not yet freed (CuPy's used_bytes()).
    [[nodiscard]] std::size_t used_bytes() const { return pool_->used_bytes(); }
    /// Bytes held from the device: used plus cached (CuPy's total_bytes()).
    [[nodiscard]] std::size_t total_bytes() const { return pool_->total_bytes(); }
    /// Bytes cached for reuse: total_bytes() - used_bytes().
    [[nodiscard]] std::size_t free_bytes() const { return pool_->free_bytes(); }
    /// The number of cached blocks.
    [[nodiscard]] std::size_t n_free_blocks() const { return pool_->n_free_blocks(); }
    /// Returns cached chunks to the device (all streams, or one stream's).
    void free_all_blocks() { pool_->free_all_blocks(); }
    /// Returns only `stream`'s cached chunks.
    void free_all_blocks(StreamView stream) { pool_->free_all_blocks(stream); }

    /// Caps total_bytes(): a byte count, or a fraction (0 to 1) of the device's memory; 0 (or a
    /// fraction that comes to 0 bytes) removes the limit.
    void set_limit(std::size_t bytes);
    /// Caps total_bytes() at `fraction` (0 to 1) of the device's memory; 0 removes the limit.
    void set_limit_fraction(double fraction);
    /// The limit in bytes; 0 when there is none.
    [[nodiscard]] std::size_t get_limit() const noexcept;

private:
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;

    int device_;
    std::unique_ptr<detail::DeviceResource> device_memory_;
    std::unique_ptr<LimitResource> limit_;
    std::unique_ptr<detail::EventStreamOrder> order_;
    std::unique_ptr<PoolResource> pool_;
};

/// Page-locked host memory for staging asynchronous copies, cached by a best-fit pool.
class PinnedMemoryPool final : public MemoryResource {
public:
    PinnedMemoryPool();
    ~PinnedMemoryPool() override;
    PinnedMemoryPool(const PinnedMemoryPool&) = delete;
    PinnedMemoryPool(PinnedMemoryPool&&) = delete;
    PinnedMemoryPool& operator=(const PinnedMemoryPool&) = delete;
    PinnedMemoryPool& operator=(PinnedMemoryPool&&) = delete;

    /// Bytes handed out and not yet freed.
    [[nodiscard]] std::size_t used_bytes() const { return pool_->used_bytes(); }
    /// Bytes held from the system: used plus cached.
    [[nodiscard]] std::size_t total_bytes() const { return pool_->total_bytes(); }
    /// The number of cached blocks.
    [[nodiscard]] std::size_t n_free_blocks() const { return pool_->n_free_blocks(); }
    /// Returns the cached chunks to the system.
    void free_all_blocks() { pool_->free_all_blocks(); }

private:
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;

    std::unique_ptr<detail::PinnedResource> pinned_;
    std::unique_ptr<detail::NoStreamOrder> order_;
    std::unique_ptr<PoolResource> pool_;
};

/// The vendor's stream-ordered allocator (cudaMallocAsync / hipMallocAsync) for one device.
/// Throws Error on construction when the device does not support memory pools.
class MemoryAsyncPool final : public MemoryResource {
public:
    /// The stream-ordered pool of `device` (default: the current device).
    explicit MemoryAsyncPool(std::optional<int> device = std::nullopt);

    /// The device whose memory the pool holds.
    [[nodiscard]] int device() const noexcept { return device_; }

private:
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;

    int device_;
};

/// The current device's default pools, or `device`'s (made on first use, alive until the
/// process exits).
[[nodiscard]] MemoryPool& get_default_memory_pool();
/// `device`'s default pool.
[[nodiscard]] MemoryPool& get_default_memory_pool(int device);
/// The process's pinned host pool, which staging copies use (cupy.get_default_pinned_memory_pool).
[[nodiscard]] PinnedMemoryPool& get_default_pinned_memory_pool();

/// Returns what kiln's default pools cache (every device's pool, the pinned pool, the staging
/// buffers of finished uploads) to the device and the system; arrays still alive keep their memory,
/// and the pools fill again on use. Pools never free their cache at exit, so call this first where
/// a leak checker runs (compute-sanitizer --leak-check full) or another library needs the memory.
void release_cached_memory();

/// What arrays on the current device allocate from: `resource` (the caller keeps it alive), or
/// with nullptr the default pool again.
void set_allocator(MemoryResource* resource);
/// What arrays on the current device allocate from: the resource set, else the default pool.
[[nodiscard]] MemoryResource& get_allocator();
/// What arrays on `device` allocate from.
[[nodiscard]] MemoryResource& get_allocator(int device);

}  // namespace kiln
