#include "call_memo.hpp"

#include <kiln/ndarray.hpp>
#include <kiln/scalar.hpp>

#include <atomic>
#include <variant>

namespace kiln::detail {

namespace {

constexpr std::int64_t array_kind = 1;
constexpr std::int64_t scalar_kind = 2;
constexpr int kind_shift = 8;

std::int64_t kind_of(const Argument& argument) noexcept {
    if (const auto* array = std::get_if<ndarray>(&argument)) {
        return array_kind | (static_cast<std::int64_t>(array->dtype()) << kind_shift) |
               (std::int64_t{array->device()} << (2 * kind_shift));
    }
    return scalar_kind |
           (static_cast<std::int64_t>(std::get<Scalar>(argument).dtype()) << kind_shift);
}

const ArrayGeometry* geometry_of(const Argument& argument) noexcept {
    const auto* array = std::get_if<ndarray>(&argument);
    return array != nullptr ? array->shared_geometry().get() : nullptr;
}

}  // namespace

std::uint64_t CallMemo::new_kernel_serial() noexcept {
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

bool CallMemo::matches(const Entry& entry, std::span<const Argument> args) noexcept {
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (entry.kinds.at(i) != kind_of(args[i]) ||
            entry.geometries.at(i).get() != geometry_of(args[i])) {
            return false;
        }
    }
    return true;
}

std::shared_ptr<const RecordedCall> CallMemo::find(std::uint64_t kernel, int device,
                                                   std::span<const Argument> args,
                                                   const CallSignature& options) const noexcept {
    for (const Entry& entry : entries_) {
        if (entry.kernel == kernel && entry.device == device && entry.count == args.size() &&
            entry.options == options && matches(entry, args)) {
            return entry.call;
        }
    }
    return nullptr;
}

void CallMemo::remember(std::uint64_t kernel, int device, std::span<const Argument> args,
                        const CallSignature& options, std::shared_ptr<const RecordedCall> call) {
    if (args.size() > max_arguments || !options.complete()) {
        return;
    }
    Entry& entry = entries_.at(next_);
    next_ = (next_ + 1) % capacity;
    entry.kernel = kernel;
    entry.device = device;
    entry.count = args.size();
    entry.geometries = {};
    for (std::size_t i = 0; i < args.size(); ++i) {
        entry.kinds.at(i) = kind_of(args[i]);
        if (const auto* array = std::get_if<ndarray>(&args[i])) {
            entry.geometries.at(i) = array->shared_geometry();
        }
    }
    entry.options = options;
    entry.call = std::move(call);
}

}  // namespace kiln::detail
