// Kernel arguments packed for a launch: every parameter's bytes in one buffer, the array of
// pointers to them that the vendors' launch calls take, and where each parameter lies in the
// argument block the device reads (what the AMD code object metadata declares). Parameters that
// hold a call's own values (a data pointer, a scalar) are marked with their operand, so that a
// repeated call of the same layout can reuse the pack and patch only those bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace kiln::detail {

// Where one kernel parameter lies in the device's argument block: offset = the previous
// parameter's end rounded up to this one's alignment; size = sizeof.
struct ArgumentSlot {
    std::size_t offset = 0;
    std::size_t size = 0;
    std::size_t alignment = 1;
    friend bool operator==(const ArgumentSlot&, const ArgumentSlot&) = default;
};

// Bytes of the pack that come from one operand of the call: its data pointer or scalar value.
struct OperandBytes {
    std::size_t offset = 0;  // into ArgumentPack::bytes()
    std::size_t size = 0;
    // The call's operand index; scratch_operand for a temporary buffer, counter_operand for the
    // stream's block counter (last_block_counters.hpp).
    int operand = 0;
};

inline constexpr int scratch_operand = -1;
inline constexpr int counter_operand = -2;

class ArgumentPack {
public:
    // Starts the next parameter, of a type aligned to `alignment` bytes.
    void begin(std::size_t alignment);
    // Appends bytes to the current parameter (a struct is one parameter of several pieces).
    void append(const void* data, std::size_t bytes);
    // Appends `n` long longs: `values`, zero-padded (the generated `long long v[n]` structs).
    void append_dims(std::span<const std::int64_t> values, std::size_t n);
    // Appends bytes that belong to operand `operand` of the call (see OperandBytes).
    void append_operand(const void* data, std::size_t bytes, int operand);

    // One whole parameter.
    template <class T>
    void push(const T& value) {
        begin(alignof(T));
        append(&value, sizeof(T));
    }
    void push_dims(std::span<const std::int64_t> values, std::size_t n) {
        begin(alignof(long long));
        append_dims(values, n);
    }
    // A data pointer of operand `operand`, as one parameter.
    void push_operand_pointer(const void* pointer, int operand) {
        begin(alignof(void*));
        append_operand(static_cast<const void*>(&pointer), sizeof pointer, operand);
    }

    // One pointer per parameter, valid until the next change to the pack.
    [[nodiscard]] void** pointers();
    [[nodiscard]] std::vector<ArgumentSlot> layout() const;

    [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return bytes_; }
    [[nodiscard]] std::span<const OperandBytes> operand_bytes() const noexcept { return operands_; }

private:
    friend class ReplayedArguments;

    // Each parameter starts at a multiple of this in bytes_, so every value is aligned in memory.
    static constexpr std::size_t start_alignment = 16;

    struct Parameter {
        std::size_t start = 0;  // in bytes_
        std::size_t size = 0;
        std::size_t alignment = 1;
    };
    std::vector<std::byte> bytes_;
    std::vector<Parameter> parameters_;
    std::vector<OperandBytes> operands_;
    std::vector<void*> pointers_;
};

// A recorded pack replayed for another call of the same layout: its bytes copied onto the stack,
// with each operand's bytes taken from that call. No heap allocation.
class ReplayedArguments {
public:
    static constexpr std::size_t max_bytes = 1024;
    static constexpr std::size_t max_parameters = 96;

    // Whether `pack` is small enough to replay.
    [[nodiscard]] static bool fits(const ArgumentPack& pack) noexcept;

    // `operands[i]` points to operand i's bytes (its data pointer or scalar value), `scratch` to
    // the temporary buffer's pointer and `counter` to the block counter's. `recorded` must fit.
    ReplayedArguments(const ArgumentPack& recorded, std::span<const void* const> operands,
                      const void* scratch, const void* counter);

    [[nodiscard]] void** pointers() noexcept { return pointers_.data(); }

private:
    alignas(16) std::array<std::byte, max_bytes> bytes_;
    std::array<void*, max_parameters> pointers_;
};

}  // namespace kiln::detail
