// The shortest path of a repeated call. Each thread remembers its last few calls by the identity
// of their arguments: each array's geometry object (arrays made alike share one), dtype and
// device; each scalar's dtype; the call options' words. A call that matches one takes what was
// worked out for it (a generated kernel's record, a ufunc's kernel) without working it out again.
// An entry holds the geometries it names, so no address it compares can be reused for another
// shape.
#pragma once

#include "recorded_call.hpp"

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <variant>

namespace kiln::detail {

// An array's geometry object; null for a scalar.
[[nodiscard]] inline const ArrayGeometry* argument_geometry(const Argument& argument) noexcept {
    const auto* array = std::get_if<ndarray>(&argument);
    return array != nullptr ? array->shared_geometry().get() : nullptr;
}

// A serial number for an owner of calls (a kernel state): unlike its address, never reused.
[[nodiscard]] std::uint64_t new_call_owner_serial() noexcept;

template <class Value>
class CallMemo {
    struct Entry;

public:
    // Calls with more arguments are not remembered.
    static constexpr std::size_t max_arguments = 8;

    // A value found, held in place: remember() replaces no held entry, so the calls its holder
    // makes on this thread (a replay may run others) cannot free it. Neither copied nor moved.
    class Held {
    public:
        Held() = default;
        explicit Held(Entry& entry) noexcept : entry_(&entry) { ++entry.holders; }
        Held(const Held&) = delete;
        Held& operator=(const Held&) = delete;
        Held(Held&&) = delete;
        Held& operator=(Held&&) = delete;
        ~Held() {
            if (entry_ != nullptr) {
                --entry_->holders;
            }
        }
        explicit operator bool() const noexcept { return entry_ != nullptr; }
        const Value& operator*() const noexcept { return entry_->value; }

    private:
        Entry* entry_ = nullptr;
    };

    // The value remembered for a call of `owner` on `device` with `args` and options that sign
    // as `options`; empty when none is.
    [[nodiscard]] Held find(std::uint64_t owner, int device, std::span<const Argument> args,
                            const CallSignature& options) noexcept {
        for (Entry& entry : entries_) {
            if (entry.owner == owner && entry.device == device && entry.count == args.size() &&
                entry.options == options && matches(entry, args)) {
                return Held(entry);
            }
        }
        return {};
    }

    // Remembers `value` for the same, in place of the oldest entry not held; not at all when
    // every entry is held.
    void remember(std::uint64_t owner, int device, std::span<const Argument> args,
                  const CallSignature& options, Value value) {
        if (args.size() > max_arguments || !options.complete()) {
            return;
        }
        std::size_t tried = 0;
        while (entries_.at(next_).holders > 0) {
            next_ = (next_ + 1) % capacity;
            if (++tried == capacity) {
                return;
            }
        }
        Entry& entry = entries_.at(next_);
        next_ = (next_ + 1) % capacity;
        entry.owner = owner;
        entry.device = device;
        entry.count = args.size();
        entry.geometries = {};
        for (std::size_t i = 0; i < args.size(); ++i) {
            entry.kinds.at(i) = argument_kind(args[i]);
            if (const auto* array = std::get_if<ndarray>(&args[i])) {
                entry.geometries.at(i) = array->shared_geometry();
            }
        }
        entry.options = options;
        entry.value = std::move(value);
    }

private:
    struct Entry {
        std::uint64_t owner = 0;  // 0: empty
        int device = -1;
        std::size_t count = 0;
        std::array<std::shared_ptr<const ArrayGeometry>, max_arguments> geometries;  // of arrays
        std::array<std::int64_t, max_arguments> kinds{};
        CallSignature options;
        Value value{};
        int holders = 0;  // Held values of this entry on the stack
    };
    static constexpr std::size_t capacity = 8;

    [[nodiscard]] static bool matches(const Entry& entry, std::span<const Argument> args) noexcept {
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (entry.kinds.at(i) != argument_kind(args[i]) ||
                entry.geometries.at(i).get() != argument_geometry(args[i])) {
                return false;
            }
        }
        return true;
    }

    std::array<Entry, capacity> entries_;
    std::size_t next_ = 0;
};

// The calling thread's memo of `Value`s, shared by every caller that keeps them; null once the
// thread's thread-locals are being destroyed (a call from a static destructor at exit then takes
// the full path).
template <class Value>
[[nodiscard]] CallMemo<Value>* this_thread_memo() noexcept {
    struct Holder {
        Holder() = default;
        Holder(const Holder&) = delete;
        Holder& operator=(const Holder&) = delete;
        Holder(Holder&&) = delete;
        Holder& operator=(Holder&&) = delete;
        ~Holder() { ended() = true; }
        // Trivially destructible, so it can still be read after the holder is gone.
        static bool& ended() noexcept {
            thread_local bool flag = false;
            return flag;
        }
        CallMemo<Value> memo;
    };
    if (Holder::ended()) {
        return nullptr;
    }
    thread_local Holder holder;
    return &holder.memo;
}

}  // namespace kiln::detail
