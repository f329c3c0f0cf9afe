#include "pending_array.hpp"

#include <algorithm>
#include <atomic>
#include <unordered_map>
#include <utility>

namespace kiln::detail {

namespace {

// Which deferred expressions are live and what each reads. A source is an allocation (the
// pointer an ndarray's memory() holds) or a pending array not yet computed; once computed, its
// readers move to its memory.
struct Registry {
    std::mutex mutex;
    std::unordered_map<const PendingArray*, std::weak_ptr<PendingArray>> live;
    std::unordered_multimap<const void*, PendingArray*> readers;
    std::unordered_map<const PendingArray*, const void*> computed;  // a pending source's memory
    std::atomic<std::size_t> count{0};
};

Registry& registry() {
    static auto& shared = *new Registry();  // never destroyed: arrays may outlive statics
    return shared;
}

// Expressions this thread is computing: what they read is read by the lazy machinery itself.
thread_local int computing = 0;

}  // namespace

void PendingArray::forget() noexcept {
    Registry& r = registry();
    const std::scoped_lock lock(r.mutex);
    const PendingArray* reader = this;
    r.live.erase(reader);
    r.computed.erase(reader);
    for (const void* source : sources_) {
        auto [first, last] = r.readers.equal_range(source);
        while (first != last) {
            first = first->second == reader ? r.readers.erase(first) : std::next(first);
        }
    }
    sources_.clear();
    r.count.store(r.live.size(), std::memory_order_relaxed);
}

namespace {

template <class Select>
void run_selected(Select select) {
    Registry& r = registry();
    if (computing > 0 || r.count.load(std::memory_order_relaxed) == 0) {
        return;
    }
    std::vector<std::shared_ptr<PendingArray>> due;
    {
        const std::scoped_lock lock(r.mutex);
        select(r, due);
    }
    for (const auto& pending : due) {
        (void)pending->memory();
    }
}

}  // namespace

ComputingScope::ComputingScope() noexcept {
    ++computing;
}

ComputingScope::~ComputingScope() {
    --computing;
}

PendingArray::~PendingArray() {
    forget();
}

void PendingArray::reads(const void* source) {
    Registry& r = registry();
    const std::scoped_lock lock(r.mutex);
    r.live.try_emplace(this, weak_from_this());
    if (const auto found = r.computed.find(static_cast<const PendingArray*>(source));
        found != r.computed.end()) {
        source = found->second;
    }
    r.readers.emplace(source, this);
    sources_.push_back(source);
    r.count.store(r.live.size(), std::memory_order_relaxed);
}

const std::shared_ptr<void>& PendingArray::memory() {
    const std::scoped_lock lock(mutex_);
    if (evaluated_) {
        return memory_;
    }
    {
        const ComputingScope scope;
        memory_ = compute();
    }
    evaluated_ = true;
    release_inputs();
    forget();
    // Those reading this expression now read its memory.
    Registry& r = registry();
    const std::scoped_lock registry_lock(r.mutex);
    const void* const self = this;
    const auto [first, last] = r.readers.equal_range(self);
    std::vector<PendingArray*> moved;
    for (auto it = first; it != last; ++it) {
        moved.push_back(it->second);
    }
    r.readers.erase(self);
    for (PendingArray* reader : moved) {
        r.readers.emplace(memory_.get(), reader);
        std::replace(reader->sources_.begin(), reader->sources_.end(), self,
                     static_cast<const void*>(memory_.get()));
    }
    r.computed.emplace(this, memory_.get());
    return memory_;
}

bool PendingArray::evaluated() const {
    const std::scoped_lock lock(mutex_);
    return evaluated_;
}

void run_readers_of(const void* source) {
    run_selected([source](Registry& r, std::vector<std::shared_ptr<PendingArray>>& due) {
        const auto [first, last] = r.readers.equal_range(source);
        for (auto it = first; it != last; ++it) {
            if (const auto found = r.live.find(it->second); found != r.live.end()) {
                if (auto pending = found->second.lock()) {
                    due.push_back(std::move(pending));
                }
            }
        }
    });
}

void run_all_pending() {
    run_selected([](Registry& r, std::vector<std::shared_ptr<PendingArray>>& due) {
        for (const auto& [reader, weak] : r.live) {
            // One read by another deferred expression runs inside that one's kernel: run alone,
            // it would be a kernel and an allocation of its own.
            if (r.readers.contains(reader)) {
                continue;
            }
            if (auto pending = weak.lock()) {
                due.push_back(std::move(pending));
            }
        }
    });
}

std::size_t pending_count() {
    return registry().count.load(std::memory_order_relaxed);
}

}  // namespace kiln::detail
