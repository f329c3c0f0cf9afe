/// @file
/// kiln's memory pool: a stream-aware best-fit cache over an upstream resource, with CuPy's
/// MemoryPool semantics and statistics.
#pragma once

#include <kiln/memory_resource.hpp>
#include <kiln/stream_view.hpp>

#include <cstddef>
#include <memory>

namespace kiln {

/// Orders work between two streams without blocking the host. The device implementation records
/// an event on `producer` and makes `waiter` wait on it.
class StreamOrder {
public:
    StreamOrder() = default;
    StreamOrder(const StreamOrder&) = delete;
    StreamOrder(StreamOrder&&) = delete;
    StreamOrder& operator=(const StreamOrder&) = delete;
    StreamOrder& operator=(StreamOrder&&) = delete;
    virtual ~StreamOrder() = default;

    /// Work queued on `waiter` from now on runs only after all work queued so far on `producer`.
    virtual void make_wait(StreamView waiter, StreamView producer) = 0;

    /// Whether `stream` was destroyed after finishing its work, so that memory freed on it is idle.
    [[nodiscard]] virtual bool retired(StreamView /*stream*/) const { return false; }

    /// The pool lets go of `stream`, which is about to be destroyed: drop what is kept for it.
    virtual void forget(StreamView /*stream*/) noexcept {}
};

/// Caches memory from an upstream resource, like CuPy's MemoryPool.
///
/// Sizes are rounded up to a multiple of `granularity`. An allocation on stream S takes the
/// smallest free block that fits (the lowest address among equals), first among the blocks last
/// freed on S, which S's own order protects; then among blocks freed on another stream P, after
/// calling order.make_wait(S, P). Only when no stream has a fitting block does the pool take a
/// new chunk of exactly the rounded size from the upstream. A larger block is split: the front is
/// handed out, the rest stays free on its stream. A freed block joins the free blocks of the
/// stream it is freed on and merges with its free neighbours of the same chunk and stream.
///
/// A chunk is entirely free when all its blocks are. Its free blocks may belong to several streams
/// (blocks of different streams never merge): the pool then returns the chunk on its first block's
/// stream S, after order.make_wait(S, P) for each other stream P among its blocks.
///
/// Streams end. A stream that has finished its work and is about to be destroyed is retired
/// (retire_stream, which kiln::Stream's destructor calls on every pool): its free blocks become
/// idle, owed to no stream, so any stream takes them without a wait and they merge with any free
/// neighbour; memory later freed under its handle (an array that outlived its stream), which
/// order.retired() reports, is idle too. The pool never names a retired stream again: not to
/// order.make_wait, not to the upstream. An entirely idle chunk goes back on the null stream.
///
/// When the upstream throws OutOfMemory the pool returns its entirely free chunks and tries once
/// more; if that fails too it throws OutOfMemory(rounded request, total_bytes(), the upstream's
/// limit).
///
/// Thread-safe. The pool calls the upstream and order.make_wait with its lock held, so neither
/// may call back into the pool. The destructor returns every chunk to the upstream, including
/// blocks still handed out, without ordering streams: destroy the pool only once nothing uses it or
/// its memory any more, device work included.
class PoolResource final : public MemoryResource {
public:
    /// Block sizes are rounded up to a multiple of this many bytes.
    static constexpr std::size_t granularity = 512;

    /// `upstream` and `order` must outlive the pool.
    PoolResource(MemoryResource& upstream, StreamOrder& order);
    PoolResource(const PoolResource&) = delete;
    PoolResource(PoolResource&&) = delete;
    PoolResource& operator=(const PoolResource&) = delete;
    PoolResource& operator=(PoolResource&&) = delete;
    ~PoolResource() override;

    /// The resource the pool takes its chunks from.
    [[nodiscard]] MemoryResource& upstream() const noexcept;

    /// Bytes handed out, as rounded sizes.
    [[nodiscard]] std::size_t used_bytes() const;
    /// Bytes held from the upstream.
    [[nodiscard]] std::size_t total_bytes() const;
    /// total_bytes() - used_bytes(): bytes cached for reuse.
    [[nodiscard]] std::size_t free_bytes() const;
    /// The number of cached blocks.
    [[nodiscard]] std::size_t n_free_blocks() const;

    /// Returns to the upstream every chunk that is entirely free.
    void free_all_blocks();
    /// The same, for the chunks that are entirely free on `stream` or idle; needs no make_wait.
    void free_all_blocks(StreamView stream);

    /// `stream` has finished its work and is about to be destroyed; see the class comment. Then
    /// calls order.forget(stream). kiln::Stream's destructor does this for every pool; a stream
    /// kiln did not make must outlive the memory freed on it.
    void retire_stream(StreamView stream);

private:
    // Throws OutOfMemory when no chunk can be had.
    void* do_allocate(std::size_t bytes, StreamView stream) override;
    // Throws Error, changing nothing, when `ptr` was not handed out by this pool or `bytes` is
    // not the size it was allocated with.
    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override;

    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace kiln
