#include "call_memo.hpp"

#include <atomic>

namespace kiln::detail {

std::uint64_t new_call_owner_serial() noexcept {
    static std::atomic<std::uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace kiln::detail
