#include "argument_pack.hpp"

#include <algorithm>
#include <cstring>

namespace kiln::detail {

void ArgumentPack::begin(std::size_t alignment) {
    parameters_.push_back({{}, alignment});
}

void ArgumentPack::append(const void* data, std::size_t bytes) {
    auto& target = parameters_.back().bytes;
    const std::size_t at = target.size();
    target.resize(at + bytes);
    std::memcpy(target.data() + at, data, bytes);
}

void ArgumentPack::append_dims(const std::vector<std::int64_t>& values, std::size_t n) {
    std::vector<long long> dims(n, 0);
    std::copy_n(values.begin(), std::min(n, values.size()), dims.begin());
    append(dims.data(), n * sizeof(long long));
}

void** ArgumentPack::pointers() {
    pointers_.clear();
    for (auto& parameter : parameters_) {
        pointers_.push_back(parameter.bytes.data());
    }
    return pointers_.data();
}

std::vector<ArgumentSlot> ArgumentPack::layout() const {
    std::vector<ArgumentSlot> slots;
    std::size_t end = 0;
    for (const auto& parameter : parameters_) {
        const std::size_t offset =
            (end + parameter.alignment - 1) / parameter.alignment * parameter.alignment;
        slots.push_back({offset, parameter.bytes.size(), parameter.alignment});
        end = offset + parameter.bytes.size();
    }
    return slots;
}

}  // namespace kiln::detail
