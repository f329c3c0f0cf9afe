#include "argument_pack.hpp"

#include <cstring>

namespace kiln::detail {

void ArgumentPack::begin(std::size_t alignment) {
    const std::size_t start =
        (bytes_.size() + start_alignment - 1) / start_alignment * start_alignment;
    bytes_.resize(start);
    parameters_.push_back({start, 0, alignment});
}

void ArgumentPack::append(const void* data, std::size_t bytes) {
    const std::size_t at = bytes_.size();
    bytes_.resize(at + bytes);
    std::memcpy(bytes_.data() + at, data, bytes);
    parameters_.back().size += bytes;
}

void ArgumentPack::append_dims(std::span<const std::int64_t> values, std::size_t n) {
    for (std::size_t d = 0; d < n; ++d) {
        const long long value = d < values.size() ? values[d] : 0;
        append(&value, sizeof value);
    }
}

void ArgumentPack::append_operand(const void* data, std::size_t bytes, int operand) {
    operands_.push_back({bytes_.size(), bytes, operand});
    append(data, bytes);
}

void** ArgumentPack::pointers() {
    pointers_.clear();
    for (const Parameter& parameter : parameters_) {
        pointers_.push_back(bytes_.data() + parameter.start);
    }
    return pointers_.data();
}

std::vector<ArgumentSlot> ArgumentPack::layout() const {
    std::vector<ArgumentSlot> slots;
    std::size_t end = 0;
    for (const Parameter& parameter : parameters_) {
        const std::size_t offset =
            (end + parameter.alignment - 1) / parameter.alignment * parameter.alignment;
        slots.push_back({offset, parameter.size, parameter.alignment});
        end = offset + parameter.size;
    }
    return slots;
}

bool ReplayedArguments::fits(const ArgumentPack& pack) noexcept {
    return pack.bytes_.size() <= max_bytes && pack.parameters_.size() <= max_parameters;
}

// The buffers are filled up to the recorded sizes only: zeroing them would cost every launch.
// NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init)
ReplayedArguments::ReplayedArguments(const ArgumentPack& recorded,
                                     std::span<const void* const> operands, const void* scratch,
                                     const void* counter) {
    std::memcpy(bytes_.data(), recorded.bytes_.data(), recorded.bytes_.size());
    for (const OperandBytes& slot : recorded.operands_) {
        const void* source = slot.operand == scratch_operand ? scratch
                             : slot.operand == counter_operand
                                 ? counter
                                 : operands[static_cast<std::size_t>(slot.operand)];
        // Most operands are data pointers: a copy of a known size is inlined.
        if (slot.size == sizeof(void*)) {
            std::memcpy(bytes_.data() + slot.offset, source, sizeof(void*));
        } else {
            std::memcpy(bytes_.data() + slot.offset, source, slot.size);
        }
    }
    for (std::size_t p = 0; p < recorded.parameters_.size(); ++p) {
        pointers_.at(p) = bytes_.data() + recorded.parameters_[p].start;
    }
}

}  // namespace kiln::detail
