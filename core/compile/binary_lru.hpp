// The compile cache's memory level: binaries by compile key, least recently used first out once
// their images pass a byte limit. Entries are handed out as copies, so evicting one never touches
// a module loaded from it (module_cache.hpp keeps those). Not thread-safe: CompileCache locks.
#pragma once

#include "../backend.hpp"

#include <cstddef>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace kiln::detail {

// KILN_CACHE_MEMORY_LIMIT's default: some thousands of typical code objects.
inline constexpr std::size_t default_memory_cache_limit = std::size_t{256} << 20U;

class BinaryLru {
public:
    // `byte_limit` bounds the sum of the images kept; 0 means no bound. The entry stored last is
    // kept even when it alone passes the bound.
    explicit BinaryLru(std::size_t byte_limit) : limit_(byte_limit) {}

    // A copy of the entry for `key`, now the most recently used; nothing when there is none.
    [[nodiscard]] std::optional<CompiledBinary> find(const std::string& key);

    // Stores `binary` as the most recently used (a present key keeps its first binary), evicts
    // from the least recently used end until the bound holds, and returns a copy of what is kept.
    CompiledBinary insert(const std::string& key, CompiledBinary binary);

    // A new bound, applied now.
    void set_limit(std::size_t byte_limit);

    [[nodiscard]] std::size_t entries() const noexcept { return index_.size(); }
    [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
    [[nodiscard]] std::size_t limit() const noexcept { return limit_; }

private:
    using Order = std::list<std::pair<std::string, CompiledBinary>>;

    void evict_beyond_limit();

    std::size_t limit_;
    std::size_t bytes_ = 0;
    Order order_;  // most recently used first
    std::map<std::string, Order::iterator, std::less<>> index_;
};

}  // namespace kiln::detail
