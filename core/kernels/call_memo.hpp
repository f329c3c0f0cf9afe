// The shortest path of a generated kernel's call. Each thread remembers its last few calls by the
// identity of their arguments: each array's geometry object (arrays made alike share one), dtype
// and device; each scalar's dtype; the call options' words. A call that matches one replays its
// record without building its signature or searching the kernel's records. An entry holds the
// geometries it names, so no address it compares can be reused for another shape.
#pragma once

#include "recorded_call.hpp"

#include <kiln/argument.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace kiln::detail {

class CallMemo {
public:
    // Calls with more arguments are not remembered.
    static constexpr std::size_t max_arguments = 8;

    // A serial number for a kernel state: unlike its address, never reused.
    [[nodiscard]] static std::uint64_t new_kernel_serial() noexcept;

    // The record remembered for kernel `kernel` called on `device` with `args` and options that
    // sign as `options`; null when none is.
    [[nodiscard]] std::shared_ptr<const RecordedCall> find(
        std::uint64_t kernel, int device, std::span<const Argument> args,
        const CallSignature& options) const noexcept;
    // Remembers `call` for the same, in place of the oldest entry. The caller has checked that
    // `call` replays such a call: every array is on `device`.
    void remember(std::uint64_t kernel, int device, std::span<const Argument> args,
                  const CallSignature& options, std::shared_ptr<const RecordedCall> call);

private:
    struct Entry {
        std::uint64_t kernel = 0;  // 0: empty
        int device = -1;
        std::size_t count = 0;
        std::array<std::shared_ptr<const ArrayGeometry>, max_arguments> geometries;  // of arrays
        std::array<std::int64_t, max_arguments> kinds{};  // dtype, device, scalar or array
        CallSignature options;
        std::shared_ptr<const RecordedCall> call;
    };
    static constexpr std::size_t capacity = 8;

    [[nodiscard]] static bool matches(const Entry& entry, std::span<const Argument> args) noexcept;

    std::array<Entry, capacity> entries_;
    std::size_t next_ = 0;
};

}  // namespace kiln::detail
