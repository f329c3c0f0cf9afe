#include "pending_array.hpp"

#include <kiln/error.hpp>

#include <algorithm>
#include <atomic>
#include <unordered_map>
#include <utility>

namespace kiln::detail {

// The live expressions, in the order they were issued, linked through the expressions
// themselves so that listing one allocates nothing. Used with the registry's lock held.
class LiveList {
public:
    void link(PendingArray& array, StreamView stream) noexcept {
        if (array.listed_) {
            return;
        }
        array.issued_on_ = stream;
        array.live_previous_ = last_;
        array.live_next_ = nullptr;
        (last_ != nullptr ? last_->live_next_ : first_) = &array;
        last_ = &array;
        array.listed_ = true;
        ++size_;
    }

    void unlink(PendingArray& array) noexcept {
        if (!array.listed_) {
            return;
        }
        (array.live_previous_ != nullptr ? array.live_previous_->live_next_ : first_) =
            array.live_next_;
        (array.live_next_ != nullptr ? array.live_next_->live_previous_ : last_) =
            array.live_previous_;
        array.live_previous_ = nullptr;
        array.live_next_ = nullptr;
        array.listed_ = false;
        --size_;
    }

    // visit(array, the stream it was issued on), for each in order.
    template <class Visit>
    void for_each(Visit visit) const {
        for (PendingArray* array = first_; array != nullptr; array = array->live_next_) {
            visit(*array, array->issued_on_);
        }
    }

    [[nodiscard]] static bool listed(const PendingArray& array) noexcept { return array.listed_; }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }

private:
    PendingArray* first_ = nullptr;
    PendingArray* last_ = nullptr;
    std::size_t size_ = 0;
};

namespace {

// Which deferred expressions are live and what each reads. A source is an allocation (the
// pointer an ndarray's memory() holds) or a pending array not yet computed; once computed, its
// readers move to its memory. A stream's flush runs only what was issued on it.
struct Registry {
    std::mutex mutex;
    LiveList live;
    std::unordered_multimap<const void*, PendingArray*> readers;
    std::atomic<std::size_t> count{0};
};

Registry& registry() {
    static auto& shared = *new Registry();  // never destroyed: arrays may outlive statics
    return shared;
}

// This thread's innermost ThreadActivity, which links to those around it.
thread_local const ThreadActivity* innermost_activity = nullptr;

}  // namespace

void PendingArray::forget() noexcept {
    const std::scoped_lock lock(registry().mutex);
    forget_locked();
}

void PendingArray::forget_locked() noexcept {
    Registry& r = registry();
    const PendingArray* reader = this;
    r.live.unlink(*this);
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

// The live expressions `select` picks, taken under the registry's lock; computed after it, so
// that a last reference dropped there cannot reenter the registry. Nothing, without a lock, when
// nothing is pending.
template <class Select>
std::vector<std::shared_ptr<PendingArray>> selected(Select select) {
    Registry& r = registry();
    std::vector<std::shared_ptr<PendingArray>> due;
    if (r.count.load(std::memory_order_relaxed) == 0) {
        return due;
    }
    const std::scoped_lock lock(r.mutex);
    select(r, due);
    return due;
}

// Computes what `select` picks, unless this thread is computing an expression.
template <class Select>
void run_selected(Select select) {
    // The count first: it is one load, and every access to an array's memory asks.
    if (registry().count.load(std::memory_order_relaxed) == 0 ||
        ThreadActivity::inside(ThreadActivity::Kind::computing)) {
        return;
    }
    for (const auto& pending : selected(select)) {
        (void)pending->memory();
    }
}

// The live expressions issued where `issued_here` says; with `unread_only`, only those no other
// deferred expression reads.
template <class Where>
std::vector<std::shared_ptr<PendingArray>> issued(Where issued_here, bool unread_only = false) {
    return selected([&](Registry& r, std::vector<std::shared_ptr<PendingArray>>& due) {
        r.live.for_each([&](PendingArray& reader, StreamView stream) {
            if (issued_here(stream) && !(unread_only && r.readers.contains(&reader))) {
                if (auto pending = reader.weak_from_this().lock()) {
                    due.push_back(std::move(pending));
                }
            }
        });
    });
}

// Those no other expression reads first: an intermediate runs inside its reader's kernel, not as
// a kernel and an allocation of its own. Then what is still pending, an intermediate the caller
// holds, so that everything issued is on the stream.
template <class Where>
void run_issued(Where issued_here) {
    if (ThreadActivity::inside(ThreadActivity::Kind::computing)) {
        return;
    }
    for (const bool unread_only : {true, false}) {
        for (const auto& pending : issued(issued_here, unread_only)) {
            (void)pending->memory();
        }
    }
}

}  // namespace

ThreadActivity::ThreadActivity(Kind kind, const PendingArray* expression) noexcept
    : kind_(kind), expression_(expression), outer_(innermost_activity) {
    innermost_activity = this;
}

ThreadActivity::~ThreadActivity() {
    innermost_activity = outer_;
}

bool ThreadActivity::inside(Kind kind) noexcept {
    for (const ThreadActivity* mark = innermost_activity; mark != nullptr; mark = mark->outer_) {
        if (mark->kind_ == kind) {
            return true;
        }
    }
    return false;
}

bool ThreadActivity::computing(const PendingArray* expression) noexcept {
    for (const ThreadActivity* mark = innermost_activity; mark != nullptr; mark = mark->outer_) {
        if (mark->kind_ == Kind::computing && mark->expression_ == expression) {
            return true;
        }
    }
    return false;
}

PendingArray::~PendingArray() {
    // A computed one left the registry then, and nothing registers it again.
    if (!evaluated_.load(std::memory_order_acquire)) {
        forget();
    }
}

void PendingArray::reads(std::span<const ReadSource> sources) {
    Registry& r = registry();
    sources_.reserve(sources.size());
    const std::scoped_lock lock(r.mutex);
    r.live.link(*this, stream());
    for (const ReadSource& read : sources) {
        // A pending array is marked computed under this lock, after its readers moved to its
        // memory: one computed already is read as its memory, one not yet moves this later.
        const void* source = read.pending != nullptr && read.pending->evaluated()
                                 ? read.pending->memory_.get()
                                 : read.allocation;
        r.readers.emplace(source, this);
        sources_.push_back(source);
    }
    r.count.store(r.live.size(), std::memory_order_relaxed);
}

const std::shared_ptr<void>& PendingArray::memory() {
    // Computed: memory_ no longer changes, and no lock is needed to read it.
    if (evaluated_.load(std::memory_order_acquire)) {
        return memory_;
    }
    const std::scoped_lock lock(mutex_);
    if (!evaluated_.load(std::memory_order_relaxed)) {
        evaluate();
    }
    return memory_;
}

bool PendingArray::compute_unless_busy() {
    if (evaluated_.load(std::memory_order_acquire) || ThreadActivity::computing(this)) {
        return false;
    }
    const std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock() || evaluated_.load(std::memory_order_relaxed)) {
        return false;
    }
    evaluate();
    return true;
}

void PendingArray::evaluate() {
    {
        const ThreadActivity computing(ThreadActivity::Kind::computing, this);
        memory_ = compute();
    }
    release_inputs();
    Registry& r = registry();
    const std::scoped_lock registry_lock(r.mutex);
    forget_locked();
    // Those reading this expression now read its memory.
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
    // Published last: a thread that then reads memory_ without the lock finds the readers moved,
    // so its run_readers_of(memory_) sees them.
    evaluated_.store(true, std::memory_order_release);
}

bool PendingArray::evaluated() const {
    return evaluated_.load(std::memory_order_acquire);
}

void run_readers_of(const void* source) {
    run_selected([source](Registry& r, std::vector<std::shared_ptr<PendingArray>>& due) {
        const auto [first, last] = r.readers.equal_range(source);
        for (auto it = first; it != last; ++it) {
            if (LiveList::listed(*it->second)) {
                if (auto pending = it->second->weak_from_this().lock()) {
                    due.push_back(std::move(pending));
                }
            }
        }
    });
}

void run_all_pending() {
    run_issued([](StreamView) { return true; });
}

void run_pending_on(StreamView stream) {
    run_issued([stream](StreamView issued) { return issued == stream; });
}

void run_pending_on_device(int device) {
    run_issued([device](StreamView issued) { return issued.device() == device; });
}

// The allocation that failed may be an expression's own (its result): the others run then too,
// but not those this thread is computing, nor, to avoid waiting on a thread that may be waiting
// on this one, those another thread is computing; and an allocation failing while they run
// raises at once.
bool run_pending_for_memory(int device) {
    if (ThreadActivity::inside(ThreadActivity::Kind::freeing_memory)) {
        return false;
    }
    // Only those no other expression reads: an intermediate run alone would allocate too.
    const auto due =
        issued([device](StreamView issued) { return issued.device() == device; }, true);
    const ThreadActivity freeing(ThreadActivity::Kind::freeing_memory);
    bool ran = false;
    for (const auto& pending : due) {
        try {
            ran = pending->compute_unless_busy() || ran;
        } catch (const OutOfMemory&) {
            // Its own result did not fit: it stays pending, and the others may free theirs.
        }
    }
    return ran;
}

std::size_t pending_count() {
    return registry().count.load(std::memory_order_relaxed);
}

}  // namespace kiln::detail
