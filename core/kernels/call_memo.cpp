#include "call_memo.hpp"

#include <kiln/scalar.hpp>

#include <atomic>
#include <variant>

namespace kiln::detail {

namespace {

constexpr std::int64_t array_kind = 1;
constexpr std::int64_t scalar_kind = 2;
constexpr int kind_shift = 8;

}  // namespace

std::int64_t argument_kind(const Argument& argument) noexcept {
    if (const auto* array = std::get_if<ndarray>(&argument)) {
        return array_kind | (static_cast<std::int64_t>(array->dtype()) << kind_shift) |
               (std::int64_t{array->device()} << (2 * kind_shift));
    }
    return scalar_kind |
           (static_cast<std::int64_t>(std::get<Scalar>(argument).dtype()) << kind_shift);
}

const ArrayGeometry* argument_geometry(const Argument& argument) noexcept {
    const auto* array = std::get_if<ndarray>(&argument);
    return array != nullptr ? array->shared_geometry().get() : nullptr;
}

std::uint64_t new_call_owner_serial() noexcept {
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace kiln::detail
