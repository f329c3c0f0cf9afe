#include "pool_registry.hpp"

#include <kiln/error.hpp>
#include <kiln/pool_resource.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace kiln {

namespace {

// The largest request that can be rounded up to a multiple of the granularity.
constexpr std::size_t max_request =
    std::numeric_limits<std::size_t>::max() / PoolResource::granularity * PoolResource::granularity;

constexpr std::size_t round_up(std::size_t bytes) noexcept {
    return (bytes + PoolResource::granularity - 1) / PoolResource::granularity *
           PoolResource::granularity;
}

std::string describe(const void* ptr) {
    std::ostringstream text;
    text << ptr;
    return text.str();
}

struct Block;

// A free block as its stream's free set orders it: by size, then address, so that the first entry
// not smaller than a request is the best fit.
struct FreeEntry {
    std::size_t size = 0;
    std::uintptr_t address = 0;
    Block* block = nullptr;
};

struct BestFitOrder {
    bool operator()(const FreeEntry& a, const FreeEntry& b) const noexcept {
        return std::tie(a.size, a.address) < std::tie(b.size, b.address);
    }
};

using FreeSet = std::set<FreeEntry, BestFitOrder>;

// The stream memory is owed to: the one whose work may still use it. None means idle memory, freed
// on a stream that was destroyed after finishing its work, which any stream may take as it is.
using OwedTo = std::optional<StreamView>;

// The free blocks last freed on one stream, or the idle ones.
struct StreamFree {
    explicit StreamFree(OwedTo freed_on) : stream(freed_on) {}
    OwedTo stream;
    FreeSet blocks;
    // The last block freed here with no free neighbour, kept out of `blocks`: a call that frees
    // the array the call before it made, and asks for the same size, takes it without a search or
    // a tree update. A search files it in `blocks` first.
    Block* recent = nullptr;
};

// `recent`: free, held in its list's recent slot rather than its set.
enum class BlockState : std::uint8_t { spare, free, recent, used };

// A piece of a chunk. A chunk's blocks tile it and are linked in address order. Merging keeps the
// lower block, so a chunk's first block stays its first block while the pool holds the chunk.
struct Block {
    std::byte* address = nullptr;
    std::size_t size = 0;       // a multiple of the granularity
    std::size_t requested = 0;  // while used: the bytes the caller asked for
    OwedTo stream;              // while free: the stream it was freed on; while used: allocated on
    BlockState state = BlockState::spare;
    Block* prev = nullptr;  // the address neighbours in the same chunk
    Block* next = nullptr;
    Block* link = nullptr;         // the chain of the in-use table, or of the spare blocks
    StreamFree* owner = nullptr;   // while free: the free set holding it
    FreeSet::iterator position{};  // while free: its entry there
    // This block's set node, kept here while the block is not free, so that allocating and
    // freeing move nodes between sets and never allocate one.
    FreeSet::node_type node;
};

// A set node made ahead of need, for a new Block to carry.
FreeSet::node_type make_node() {
    FreeSet scratch;
    scratch.emplace();
    return scratch.extract(scratch.begin());
}

// The blocks handed out, by address: a chained hash table threaded through Block::link, so that
// inserting and erasing never allocate; only reserve_one grows it.
class InUseTable {
public:
    // Makes room for one more block; the only member that can throw.
    void reserve_one() {
        if (count_ < buckets_.size()) {
            return;
        }
        const std::size_t size = std::max<std::size_t>(64, buckets_.size() * 2);
        std::vector<Block*> grown(size, nullptr);
        const int shift = 64 - std::countr_zero(size);
        for (Block* head : buckets_) {
            while (head != nullptr) {
                Block* following = head->link;
                Block*& slot = grown[index(head->address, shift)];
                head->link = slot;
                slot = head;
                head = following;
            }
        }
        buckets_.swap(grown);
        shift_ = shift;
    }

    void insert(Block* block) noexcept {
        Block*& slot = buckets_[index(block->address, shift_)];
        block->link = slot;
        slot = block;
        ++count_;
    }

    [[nodiscard]] Block* find(const void* ptr) const noexcept {
        if (buckets_.empty()) {
            return nullptr;
        }
        for (Block* block = buckets_[index(ptr, shift_)]; block != nullptr; block = block->link) {
            if (block->address == ptr) {
                return block;
            }
        }
        return nullptr;
    }

    void erase(const Block* block) noexcept {
        Block** slot = &buckets_[index(block->address, shift_)];
        while (*slot != block) {
            slot = &(*slot)->link;
        }
        *slot = block->link;
        --count_;
    }

private:
    // Fibonacci hashing: the top bits of address * 2^64/phi, which mixes in the high address
    // bits; the low ones are zero for aligned chunks.
    static std::size_t index(const void* ptr, int shift) noexcept {
        const auto address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(ptr));
        return static_cast<std::size_t>((address * 0x9E3779B97F4A7C15ULL) >> shift);
    }

    std::vector<Block*> buckets_;
    std::size_t count_ = 0;
    int shift_ = 64;
};

}  // namespace

// Every member runs with `mutex` held. The functions that change the structures first do all
// that can throw (growing tables, getting Blocks, make_wait, the upstream), then change them
// without throwing, so a failure leaves the pool as it was.
struct PoolResource::State {
    State(MemoryResource& upstream_resource, StreamOrder& stream_order)
        : upstream(upstream_resource), order(stream_order) {}

    MemoryResource& upstream;
    StreamOrder& order;
    mutable std::mutex mutex;
    std::size_t used_bytes = 0;
    std::size_t total_bytes = 0;
    std::size_t n_free_blocks = 0;
    std::deque<Block> blocks;  // every Block made; a deque keeps their addresses
    Block* spare = nullptr;    // the Blocks not in use, chained through link
    InUseTable in_use;
    // One per stream that has had a block freed on it; free_chunks drops the empty ones.
    std::vector<std::unique_ptr<StreamFree>> free_lists;

    void* allocate(std::size_t bytes, StreamView stream);
    void deallocate(void* ptr, std::size_t bytes, StreamView stream);
    void free_chunks(std::optional<StreamView> stream);
    void retire(StreamView stream);
    void release_everything() noexcept;

private:
    Block* take_cached(std::size_t rounded, StreamView stream);
    // These two run only inside allocate, after its in_use.reserve_one().
    void* split_and_hand_out(Block* block, std::size_t rounded, std::size_t bytes,
                             StreamView stream);
    Block* new_chunk(std::size_t rounded, StreamView stream);
    void* allocate_chunk(std::size_t rounded, StreamView stream);
    void* hand_out(Block* block, std::size_t bytes, StreamView stream) noexcept;
    Block* take_recent(std::size_t rounded, StreamView stream) noexcept;
    void keep_recent(Block* block, StreamFree& list) noexcept;
    void file_recent() noexcept;

    StreamFree* find_list(OwedTo stream) const noexcept;
    StreamFree& list_for(OwedTo stream);
    void join_free(Block* block, StreamFree& list) noexcept;
    void release_if_free(Block* first, std::optional<StreamView> stream);
    Block* acquire_block();
    void release_block(Block* block) noexcept;
    void mark_free(Block* block, StreamFree& list) noexcept;
    void unmark_free(Block* block) noexcept;
    void absorb(Block* front, Block* back) noexcept;
};

void* PoolResource::State::allocate(std::size_t bytes, StreamView stream) {
    const std::scoped_lock lock(mutex);
    if (bytes > max_request) {
        throw OutOfMemory(bytes, total_bytes, max_request);
    }
    const std::size_t rounded = round_up(bytes);
    in_use.reserve_one();
    if (Block* block = take_recent(rounded, stream)) {
        return hand_out(block, bytes, stream);
    }
    file_recent();
    if (Block* block = take_cached(rounded, stream)) {
        return split_and_hand_out(block, rounded, bytes, stream);
    }
    return hand_out(new_chunk(rounded, stream), bytes, stream);
}

// The best fit among `stream`'s own free blocks, else among the other streams' after making
// `stream` wait on the stream that freed it; nullptr when none fits.
Block* PoolResource::State::take_cached(std::size_t rounded, StreamView stream) {
    const FreeEntry wanted{rounded, 0, nullptr};
    StreamFree* own = find_list(stream);
    if (own != nullptr) {
        if (auto fit = own->blocks.lower_bound(wanted); fit != own->blocks.end()) {
            return fit->block;
        }
    }
    const FreeEntry* best = nullptr;
    for (const auto& list : free_lists) {
        if (list.get() == own) {
            continue;
        }
        auto fit = list->blocks.lower_bound(wanted);
        if (fit != list->blocks.end() && (best == nullptr || BestFitOrder{}(*fit, *best))) {
            best = &*fit;
        }
    }
    if (best == nullptr) {
        return nullptr;
    }
    if (const OwedTo producer = best->block->stream) {
        order.make_wait(stream, *producer);
    }
    return best->block;
}

void* PoolResource::State::split_and_hand_out(Block* block, std::size_t rounded, std::size_t bytes,
                                              StreamView stream) {
    Block* rest = block->size > rounded ? acquire_block() : nullptr;
    StreamFree& list = *block->owner;
    unmark_free(block);
    if (rest != nullptr) {
        rest->address = block->address + rounded;
        rest->size = block->size - rounded;
        rest->prev = block;
        rest->next = block->next;
        if (block->next != nullptr) {
            block->next->prev = rest;
        }
        block->next = rest;
        block->size = rounded;
        mark_free(rest, list);
    }
    return hand_out(block, bytes, stream);
}

Block* PoolResource::State::new_chunk(std::size_t rounded, StreamView stream) {
    Block* block = acquire_block();
    try {
        block->address = static_cast<std::byte*>(allocate_chunk(rounded, stream));
    } catch (...) {
        release_block(block);
        throw;
    }
    block->size = rounded;
    block->prev = nullptr;
    block->next = nullptr;
    total_bytes += rounded;
    return block;
}

// Asks the upstream; when it is out of memory, returns the entirely free chunks and asks again.
void* PoolResource::State::allocate_chunk(std::size_t rounded, StreamView stream) {
    try {
        return upstream.allocate(rounded, stream);
    } catch (const OutOfMemory&) {
        free_chunks(std::nullopt);
    }
    try {
        return upstream.allocate(rounded, stream);
    } catch (const OutOfMemory& e) {
        throw OutOfMemory(rounded, total_bytes, e.limit(), e.device());
    }
}

void* PoolResource::State::hand_out(Block* block, std::size_t bytes, StreamView stream) noexcept {
    block->state = BlockState::used;
    block->requested = bytes;
    block->stream = stream;
    in_use.insert(block);
    used_bytes += block->size;
    return block->address;
}

void PoolResource::State::deallocate(void* ptr, std::size_t bytes, StreamView stream) {
    const std::scoped_lock lock(mutex);
    Block* block = in_use.find(ptr);
    if (block == nullptr) {
        throw Error("kiln: PoolResource::deallocate: pointer " + describe(ptr) +
                    " was not allocated by this pool, or was already freed");
    }
    if (bytes != block->requested) {
        throw Error("kiln: PoolResource::deallocate: pointer " + describe(ptr) +
                    " was allocated with " + std::to_string(block->requested) +
                    " bytes, but is freed with " + std::to_string(bytes) + " bytes");
    }
    // Memory freed on a destroyed stream (an array that outlived its stream) is idle.
    StreamFree& list = list_for(order.retired(stream) ? OwedTo{} : OwedTo{stream});
    in_use.erase(block);
    used_bytes -= block->size;
    const auto free = [](const Block* neighbour) {
        return neighbour != nullptr && neighbour->state != BlockState::used &&
               neighbour->state != BlockState::spare;
    };
    if (list.recent == nullptr && !free(block->prev) && !free(block->next)) {
        keep_recent(block, list);
        return;
    }
    join_free(block, list);
}

// `stream`'s recent block, out of its slot, when it is what take_cached would pick: exactly
// `rounded` bytes, and no free block of that size at a lower address. Else nullptr.
Block* PoolResource::State::take_recent(std::size_t rounded, StreamView stream) noexcept {
    StreamFree* own = find_list(stream);
    if (own == nullptr || own->recent == nullptr || own->recent->size != rounded) {
        return nullptr;
    }
    Block* block = own->recent;
    const auto address = reinterpret_cast<std::uintptr_t>(block->address);
    if (const auto fit = own->blocks.lower_bound(FreeEntry{rounded, 0, nullptr});
        fit != own->blocks.end() && fit->size == rounded && fit->address < address) {
        return nullptr;
    }
    unmark_free(block);
    return block;
}

void PoolResource::State::keep_recent(Block* block, StreamFree& list) noexcept {
    list.recent = block;
    block->owner = &list;
    block->stream = list.stream;
    block->state = BlockState::recent;
    ++n_free_blocks;
}

// Files every list's recent block among its free blocks, joined with its free neighbours.
void PoolResource::State::file_recent() noexcept {
    for (const auto& list : free_lists) {
        if (Block* block = list->recent) {
            unmark_free(block);
            join_free(block, *list);
        }
    }
}

// Files a block that is no longer used, or no longer owed to its stream, among `list`'s free
// blocks, merged with its free neighbours of the same list. Idle neighbours merge into any list,
// and an idle block into any neighbour's: idle memory can take on any stream's order.
void PoolResource::State::join_free(Block* block, StreamFree& list) noexcept {
    StreamFree* into = &list;
    const auto joins = [&into](const Block* neighbour) {
        if (neighbour == nullptr ||
            (neighbour->state != BlockState::free && neighbour->state != BlockState::recent) ||
            neighbour->owner == nullptr) {
            return false;
        }
        if (neighbour->owner == into || !neighbour->owner->stream) {
            return true;
        }
        if (!into->stream) {
            into = neighbour->owner;
            return true;
        }
        return false;
    };
    if (Block* prev = block->prev; joins(prev)) {
        unmark_free(prev);
        absorb(prev, block);
        block = prev;
    }
    if (Block* next = block->next; joins(next)) {
        unmark_free(next);
        absorb(block, next);
    }
    mark_free(block, *into);
}

// Returns the chunks whose blocks are all free: of every stream, or only those freed on `stream`.
void PoolResource::State::free_chunks(std::optional<StreamView> stream) {
    file_recent();
    std::vector<Block*> firsts;
    for (const auto& list : free_lists) {
        if (!stream || !list->stream || list->stream == *stream) {
            for (const FreeEntry& entry : list->blocks) {
                if (entry.block->prev == nullptr) {
                    firsts.push_back(entry.block);
                }
            }
        }
    }
    for (Block* first : firsts) {
        release_if_free(first, stream);
    }
    std::erase_if(free_lists, [](const auto& list) { return list->blocks.empty(); });
}

// A chunk's blocks can be free on several streams, since blocks of different streams never
// merge. The chunk goes back on the first of those streams, made to wait on the others first; an
// entirely idle chunk goes back on the null stream. With `stream`, only chunks whose blocks are
// free on it (or idle) go back.
void PoolResource::State::release_if_free(Block* first, std::optional<StreamView> stream) {
    std::size_t chunk_bytes = 0;
    std::vector<StreamView> owed;
    for (const Block* block = first; block != nullptr; block = block->next) {
        if (block->state != BlockState::free ||
            (stream && block->stream && *block->stream != *stream)) {
            return;
        }
        chunk_bytes += block->size;
        if (block->stream && std::find(owed.begin(), owed.end(), *block->stream) == owed.end()) {
            owed.push_back(*block->stream);
        }
    }
    const StreamView release_on = owed.empty() ? StreamView{} : owed.front();
    for (std::size_t i = 1; i < owed.size(); ++i) {
        order.make_wait(release_on, owed[i]);
    }
    upstream.deallocate(first->address, chunk_bytes, release_on);
    total_bytes -= chunk_bytes;
    for (Block* block = first; block != nullptr;) {
        Block* following = block->next;
        unmark_free(block);
        release_block(block);
        block = following;
    }
}

// `stream` has finished its work and is about to be destroyed: its free blocks become idle,
// joining free neighbours where they can, and blocks allocated on it forget it.
void PoolResource::State::retire(StreamView stream) {
    file_recent();
    for (Block& block : blocks) {
        if (block.state == BlockState::used && block.stream == stream) {
            block.stream.reset();
        }
    }
    StreamFree* list = find_list(stream);
    if (list == nullptr) {
        return;
    }
    list_for(OwedTo{});  // the one step that can throw, taken before anything changes
    std::vector<Block*> freed;
    freed.reserve(list->blocks.size());
    for (const FreeEntry& entry : list->blocks) {
        freed.push_back(entry.block);
    }
    for (Block* block : freed) {
        unmark_free(block);
    }
    std::erase_if(free_lists, [list](const auto& each) { return each.get() == list; });
    for (Block* block : freed) {
        join_free(block, *find_list(OwedTo{}));
    }
}

void PoolResource::State::release_everything() noexcept {
    for (Block& first : blocks) {
        if (first.state == BlockState::spare || first.prev != nullptr) {
            continue;
        }
        std::size_t chunk_bytes = 0;
        for (const Block* block = &first; block != nullptr; block = block->next) {
            chunk_bytes += block->size;
        }
        try {
            upstream.deallocate(first.address, chunk_bytes, first.stream.value_or(StreamView{}));
        } catch (...) {  // NOLINT(bugprone-empty-catch): a destructor has nowhere to report it
        }
    }
}

StreamFree* PoolResource::State::find_list(OwedTo stream) const noexcept {
    for (const auto& list : free_lists) {
        if (list->stream == stream) {
            return list.get();
        }
    }
    return nullptr;
}

StreamFree& PoolResource::State::list_for(OwedTo stream) {
    if (StreamFree* list = find_list(stream)) {
        return *list;
    }
    return *free_lists.emplace_back(std::make_unique<StreamFree>(stream));
}

Block* PoolResource::State::acquire_block() {
    if (spare != nullptr) {
        Block* block = spare;
        spare = block->link;
        return block;
    }
    FreeSet::node_type node = make_node();
    Block& block = blocks.emplace_back();
    block.node = std::move(node);
    return &block;
}

void PoolResource::State::release_block(Block* block) noexcept {
    block->state = BlockState::spare;
    block->link = spare;
    spare = block;
}

void PoolResource::State::mark_free(Block* block, StreamFree& list) noexcept {
    block->node.value() =
        FreeEntry{block->size, reinterpret_cast<std::uintptr_t>(block->address), block};
    block->position = list.blocks.insert(std::move(block->node)).position;
    block->owner = &list;
    block->stream = list.stream;
    block->state = BlockState::free;
    ++n_free_blocks;
}

void PoolResource::State::unmark_free(Block* block) noexcept {
    if (block->state == BlockState::recent) {
        block->owner->recent = nullptr;
    } else {
        block->node = block->owner->blocks.extract(block->position);
    }
    block->owner = nullptr;
    --n_free_blocks;
}

// `back` follows `front` in their chunk; `front` takes its bytes and `back` becomes spare.
void PoolResource::State::absorb(Block* front, Block* back) noexcept {
    front->size += back->size;
    front->next = back->next;
    if (back->next != nullptr) {
        back->next->prev = front;
    }
    release_block(back);
}

namespace {

// Every live pool, so that a stream's destruction reaches them all. Never destroyed: pools may
// outlive static destruction.
struct PoolRegistry {
    std::mutex mutex;
    std::vector<PoolResource*> pools;
};

PoolRegistry& registry() {
    static auto& pools = *new PoolRegistry();
    return pools;
}

}  // namespace

void detail::retire_stream_in_every_pool(StreamView stream) {
    auto& all = registry();
    const std::scoped_lock lock(all.mutex);
    for (PoolResource* pool : all.pools) {
        pool->retire_stream(stream);
    }
}

PoolResource::PoolResource(MemoryResource& upstream, StreamOrder& order)
    : state_(std::make_unique<State>(upstream, order)) {
    auto& all = registry();
    const std::scoped_lock lock(all.mutex);
    all.pools.push_back(this);
}

PoolResource::~PoolResource() {
    {
        auto& all = registry();
        const std::scoped_lock lock(all.mutex);
        std::erase(all.pools, this);
    }
    state_->release_everything();
}

MemoryResource& PoolResource::upstream() const noexcept {
    return state_->upstream;
}

std::size_t PoolResource::used_bytes() const {
    const std::scoped_lock lock(state_->mutex);
    return state_->used_bytes;
}

std::size_t PoolResource::total_bytes() const {
    const std::scoped_lock lock(state_->mutex);
    return state_->total_bytes;
}

std::size_t PoolResource::free_bytes() const {
    const std::scoped_lock lock(state_->mutex);
    return state_->total_bytes - state_->used_bytes;
}

std::size_t PoolResource::n_free_blocks() const {
    const std::scoped_lock lock(state_->mutex);
    return state_->n_free_blocks;
}

void PoolResource::free_all_blocks() {
    const std::scoped_lock lock(state_->mutex);
    state_->free_chunks(std::nullopt);
}

void PoolResource::free_all_blocks(StreamView stream) {
    const std::scoped_lock lock(state_->mutex);
    state_->free_chunks(stream);
}

void PoolResource::retire_stream(StreamView stream) {
    const std::scoped_lock lock(state_->mutex);
    state_->retire(stream);
    state_->order.forget(stream);
}

void* PoolResource::do_allocate(std::size_t bytes, StreamView stream) {
    return state_->allocate(bytes, stream);
}

void PoolResource::do_deallocate(void* ptr, std::size_t bytes, StreamView stream) {
    state_->deallocate(ptr, bytes, stream);
}

}  // namespace kiln
