// Kernel arguments packed for a launch: each parameter's bytes in its own buffer, the array of
// pointers to them that the vendors' launch calls take, and where each parameter lies in the
// argument block the device reads (what the AMD code object metadata declares).
#pragma once

#include <cstddef>
#include <cstdint>
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

class ArgumentPack {
public:
    // Starts the next parameter, of a type aligned to `alignment` bytes.
    void begin(std::size_t alignment);
    // Appends bytes to the current parameter (a struct is one parameter of several pieces).
    void append(const void* data, std::size_t bytes);
    // Appends `n` long longs: `values`, zero-padded (the generated `long long v[n]` structs).
    void append_dims(const std::vector<std::int64_t>& values, std::size_t n);

    // One whole parameter.
    template <class T>
    void push(const T& value) {
        begin(alignof(T));
        append(&value, sizeof(T));
    }
    void push_dims(const std::vector<std::int64_t>& values, std::size_t n) {
        begin(alignof(long long));
        append_dims(values, n);
    }

    // One pointer per parameter, valid until the next change to the pack.
    [[nodiscard]] void** pointers();
    [[nodiscard]] std::vector<ArgumentSlot> layout() const;

private:
    struct Parameter {
        std::vector<std::byte> bytes;
        std::size_t alignment;
    };
    std::vector<Parameter> parameters_;
    std::vector<void*> pointers_;
};

}  // namespace kiln::detail
