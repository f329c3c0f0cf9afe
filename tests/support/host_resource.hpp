// Stand-ins for the device in memory tests: a host allocator that records what it is asked, and
// a StreamOrder that records the waits it is asked to make.
#pragma once

#include <kiln/error.hpp>
#include <kiln/memory_resource.hpp>
#include <kiln/pool_resource.hpp>
#include <kiln/stream_view.hpp>

#include <array>
#include <cstddef>
#include <map>
#include <mutex>
#include <new>
#include <sstream>
#include <unordered_set>
#include <vector>

namespace kiln::test {

// Distinct stream handles for tests; never passed to a vendor API.
inline StreamView fake_stream(std::size_t index) {
    static std::array<char, 16> handles{};
    return StreamView(&handles.at(index));
}

// One call that reached a CountingHostResource.
struct UpstreamCall {
    enum class Kind { allocate, deallocate };
    Kind kind;
    void* ptr;
    std::size_t bytes;
    StreamView stream;
};

// Host memory that records every call, aligned like device allocations. Freeing memory it did not
// hand out, or with another size, throws. Thread-safe.
//
// With a capacity it carves allocations one after another from one buffer and never reuses
// memory, so consecutive allocations are address-adjacent, as device allocations can be; past the
// capacity it throws OutOfMemory.
class CountingHostResource final : public MemoryResource {
public:
    static constexpr std::size_t alignment = 512;

    CountingHostResource() = default;
    explicit CountingHostResource(std::size_t capacity)
        : buffer_((capacity + alignment - 1) / alignment), capacity_(capacity) {}
    CountingHostResource(const CountingHostResource&) = delete;
    CountingHostResource(CountingHostResource&&) = delete;
    CountingHostResource& operator=(const CountingHostResource&) = delete;
    CountingHostResource& operator=(CountingHostResource&&) = delete;
    ~CountingHostResource() override {
        if (buffer_.empty()) {
            for (const auto& [ptr, bytes] : live_) {
                ::operator delete (ptr, std::align_val_t{alignment});
            }
        }
    }

    [[nodiscard]] std::vector<UpstreamCall> calls() const {
        const std::scoped_lock lock(mutex_);
        return calls_;
    }
    [[nodiscard]] std::size_t allocations() const { return count(UpstreamCall::Kind::allocate); }
    [[nodiscard]] std::size_t deallocations() const {
        return count(UpstreamCall::Kind::deallocate);
    }
    [[nodiscard]] std::size_t live_bytes() const {
        const std::scoped_lock lock(mutex_);
        std::size_t bytes = 0;
        for (const auto& [ptr, size] : live_) {
            bytes += size;
        }
        return bytes;
    }

private:
    struct alignas(alignment) Aligned {
        std::array<std::byte, alignment> bytes;
    };

    void* do_allocate(std::size_t bytes, StreamView stream) override {
        const std::scoped_lock lock(mutex_);
        void* ptr = nullptr;
        if (!buffer_.empty()) {
            const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
            if (rounded > capacity_ - carved_) {
                throw OutOfMemory(bytes, carved_, capacity_);
            }
            ptr = buffer_[carved_ / alignment].bytes.data();
            carved_ += rounded;
        } else {
            ptr = ::operator new (bytes, std::align_val_t{alignment});
        }
        live_.emplace(ptr, bytes);
        calls_.push_back({UpstreamCall::Kind::allocate, ptr, bytes, stream});
        return ptr;
    }

    void do_deallocate(void* ptr, std::size_t bytes, StreamView stream) override {
        const std::scoped_lock lock(mutex_);
        auto live = live_.find(ptr);
        if (live == live_.end() || live->second != bytes) {
            std::ostringstream message;
            message << "CountingHostResource: deallocate(" << ptr << ", " << bytes
                    << ") does not match a live allocation";
            throw Error(message.str());
        }
        live_.erase(live);
        calls_.push_back({UpstreamCall::Kind::deallocate, ptr, bytes, stream});
        if (buffer_.empty()) {
            ::operator delete (ptr, std::align_val_t{alignment});
        }
    }

    [[nodiscard]] std::size_t count(UpstreamCall::Kind kind) const {
        const std::scoped_lock lock(mutex_);
        std::size_t n = 0;
        for (const auto& call : calls_) {
            n += call.kind == kind ? 1 : 0;
        }
        return n;
    }

    std::vector<Aligned> buffer_;  // empty: allocate from the heap
    std::size_t capacity_ = 0;
    std::size_t carved_ = 0;
    mutable std::mutex mutex_;
    std::map<void*, std::size_t> live_;
    std::vector<UpstreamCall> calls_;
};

// Records make_wait calls, in order; fail_next() makes the next call throw, as a failing event
// record would. Streams can be retired (retired() says so) and then destroyed: a make_wait that
// names a destroyed stream is recorded as a violation, where a device would crash. Thread-safe.
class RecordingStreamOrder final : public StreamOrder {
public:
    struct Wait {
        StreamView waiter;
        StreamView producer;
        friend bool operator==(const Wait&, const Wait&) = default;
    };

    void make_wait(StreamView waiter, StreamView producer) override {
        const std::scoped_lock lock(mutex_);
        if (fail_next_) {
            fail_next_ = false;
            throw BackendError("cudaEventRecord", 700, "injected failure");
        }
        if (destroyed_.contains(waiter) || destroyed_.contains(producer)) {
            violations_.push_back({waiter, producer});
        }
        waits_.push_back({waiter, producer});
    }

    [[nodiscard]] bool retired(StreamView stream) const override {
        const std::scoped_lock lock(mutex_);
        return retired_.contains(stream);
    }

    void forget(StreamView stream) noexcept override {
        const std::scoped_lock lock(mutex_);
        forgotten_.push_back(stream);
    }

    void fail_next() {
        const std::scoped_lock lock(mutex_);
        fail_next_ = true;
    }

    // As kiln::Stream's destructor does, after synchronizing: retire, tell the pool, destroy.
    void destroy(StreamView stream, PoolResource& pool) {
        {
            const std::scoped_lock lock(mutex_);
            retired_.insert(stream);
        }
        pool.retire_stream(stream);
        const std::scoped_lock lock(mutex_);
        destroyed_.insert(stream);
    }

    [[nodiscard]] std::vector<Wait> waits() const {
        const std::scoped_lock lock(mutex_);
        return waits_;
    }
    [[nodiscard]] std::vector<Wait> violations() const {
        const std::scoped_lock lock(mutex_);
        return violations_;
    }
    [[nodiscard]] std::vector<StreamView> forgotten() const {
        const std::scoped_lock lock(mutex_);
        return forgotten_;
    }

private:
    mutable std::mutex mutex_;
    bool fail_next_ = false;
    std::vector<Wait> waits_;
    std::vector<Wait> violations_;
    std::vector<StreamView> forgotten_;
    std::unordered_set<StreamView> retired_;
    std::unordered_set<StreamView> destroyed_;
};

}  // namespace kiln::test
