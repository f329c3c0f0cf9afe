#include <kiln/memory_overlap.hpp>

#include <cstdint>
#include <utility>

namespace kiln {

namespace {

// The address of the first byte `a` touches and one past its last, for a non-empty `a`.
std::pair<std::uintptr_t, std::uintptr_t> address_range(const ndarray& a) {
    auto low = reinterpret_cast<std::uintptr_t>(a.data());
    std::uintptr_t high = low + a.itemsize();
    for (std::size_t axis = 0; axis < a.shape().size(); ++axis) {
        const std::int64_t reach = a.strides()[axis] * (a.shape()[axis] - 1);
        if (reach < 0) {
            low -= static_cast<std::uintptr_t>(-reach);
        } else {
            high += static_cast<std::uintptr_t>(reach);
        }
    }
    return {low, high};
}

}  // namespace

bool may_share_memory(const ndarray& a, const ndarray& b) {
    if (a.size() == 0 || b.size() == 0) {
        return false;
    }
    const auto [a_begin, a_end] = address_range(a);
    const auto [b_begin, b_end] = address_range(b);
    return a_begin < b_end && b_begin < a_end;
}

}  // namespace kiln
