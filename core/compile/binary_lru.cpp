#include "binary_lru.hpp"

namespace kiln::detail {

std::optional<CompiledBinary> BinaryLru::find(const std::string& key) {
    const auto found = index_.find(key);
    if (found == index_.end()) {
        return std::nullopt;
    }
    order_.splice(order_.begin(), order_, found->second);
    return found->second->second;
}

CompiledBinary BinaryLru::insert(const std::string& key, CompiledBinary binary) {
    if (const auto found = index_.find(key); found != index_.end()) {
        order_.splice(order_.begin(), order_, found->second);
        return found->second->second;
    }
    bytes_ += binary.image.size();
    order_.emplace_front(key, std::move(binary));
    index_.emplace(key, order_.begin());
    evict_beyond_limit();
    return order_.front().second;
}

void BinaryLru::set_limit(std::size_t byte_limit) {
    limit_ = byte_limit;
    evict_beyond_limit();
}

void BinaryLru::evict_beyond_limit() {
    while (limit_ != 0 && bytes_ > limit_ && order_.size() > 1) {
        const auto& [key, binary] = order_.back();
        bytes_ -= binary.image.size();
        index_.erase(key);
        order_.pop_back();
    }
}

}  // namespace kiln::detail
