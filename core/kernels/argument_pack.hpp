// Kernel arguments packed for a launch: each argument's bytes in its own buffer, and the array
// of pointers to them that the vendors' launch calls take.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace kiln::detail {

class ArgumentPack {
public:
    template <class T>
    void push(const T& value) {
        push_bytes(&value, sizeof(T));
    }
    void push_bytes(const void* data, std::size_t bytes) {
        storage_.emplace_back(bytes);
        std::memcpy(storage_.back().data(), data, bytes);
    }
    // A `long long v[n]` struct: `values` padded with zeros to `n` entries.
    void push_dims(const std::vector<std::int64_t>& values, std::size_t n) {
        std::vector<long long> dims(n, 0);
        std::copy(values.begin(), values.end(), dims.begin());
        push_bytes(dims.data(), n * sizeof(long long));
    }
    // Valid until the next push.
    [[nodiscard]] void** pointers() {
        pointers_.clear();
        for (auto& storage : storage_) {
            pointers_.push_back(storage.data());
        }
        return pointers_.data();
    }

private:
    std::vector<std::vector<std::byte>> storage_;
    std::vector<void*> pointers_;
};

}  // namespace kiln::detail
