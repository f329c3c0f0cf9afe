#include "unreported_error.hpp"

#include <mutex>
#include <utility>

namespace kiln::detail {

namespace {

std::mutex unreported_mutex;
std::exception_ptr unreported;

}  // namespace

void keep_unreported_error(std::exception_ptr error) noexcept {
    const std::scoped_lock lock(unreported_mutex);
    if (!unreported) {
        unreported = std::move(error);
    }
}

void rethrow_unreported_error() {
    std::exception_ptr error;
    {
        const std::scoped_lock lock(unreported_mutex);
        error = std::exchange(unreported, nullptr);
    }
    if (error) {
        std::rethrow_exception(error);
    }
}

}  // namespace kiln::detail
