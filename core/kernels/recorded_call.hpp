// The host fast path of ElementwiseKernel and ReductionKernel. A call whose arguments have the
// layout of an earlier call (same kinds, dtypes, devices, shapes, strides and call options)
// needs no type binding, broadcasting, collapsing, code generation or variant lookup: the first
// such call records its launches, and later ones replay them with their own data pointers and
// scalar values.
#pragma once

#include "../backend.hpp"
#include "argument_pack.hpp"

#include <kiln/argument.hpp>
#include <kiln/elementwise_kernel.hpp>
#include <kiln/scalar.hpp>
#include <kiln/stream_view.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace kiln::detail {

// An argument's kind: an array's dtype and device, or a scalar's dtype, tagged so that an array
// and a scalar never read alike. Signatures and the call memo (call_memo.hpp) compare it; inline,
// as each call computes it for every argument.
[[nodiscard]] inline std::int64_t argument_kind(const Argument& argument) noexcept {
    constexpr std::int64_t array_tag = 1;
    constexpr std::int64_t scalar_tag = 2;
    constexpr int tag_shift = 8;
    if (const auto* array = std::get_if<ndarray>(&argument)) {
        return array_tag | (static_cast<std::int64_t>(array->dtype()) << tag_shift) |
               (std::int64_t{array->device()} << (2 * tag_shift));
    }
    return scalar_tag |
           (static_cast<std::int64_t>(std::get<Scalar>(argument).dtype()) << tag_shift);
}

// What decided a call's launches, as a fixed-size list of words; never allocates. A call with
// too many words to list is not recorded.
// NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init): words_ past size_ are never read
class CallSignature {
public:
    CallSignature() = default;  // NOLINT(cppcoreguidelines-pro-type-member-init): see words_
    // The device a call runs on and its arguments (not their data or values).
    CallSignature(int device, std::span<const Argument> args) noexcept;

    void add(std::int64_t word) noexcept {
        if (size_ == capacity) {
            overflow_ = true;
            return;
        }
        words_.at(size_++) = word;
    }
    // The argument's kind, then an array's rank, extents and strides.
    void add(const Argument& argument) noexcept;
    // Appends `other`'s words.
    void add(const CallSignature& other) noexcept {
        for (std::size_t i = 0; i < other.size_; ++i) {
            add(other.words_.at(i));
        }
        overflow_ = overflow_ || other.overflow_;
    }

    [[nodiscard]] bool complete() const noexcept { return !overflow_; }
    // Inline: the call memo compares the options' few words on every call.
    friend bool operator==(const CallSignature& a, const CallSignature& b) noexcept {
        return a.size_ == b.size_ && a.overflow_ == b.overflow_ &&
               std::equal(a.words_.begin(), a.words_.begin() + static_cast<std::ptrdiff_t>(a.size_),
                          b.words_.begin());
    }

private:
    static constexpr std::size_t capacity = 64;
    // Only the first size_ words are written and read; zeroing all 512 bytes cost about 70
    // instructions a call.
    std::array<std::int64_t, capacity> words_;  // NOLINT(*-member-init)
    std::size_t size_ = 0;
    bool overflow_ = false;
};

struct RecordedLaunch {
    NativeFunction function = nullptr;
    Dim3 grid;
    Dim3 block;
    std::size_t shared_bytes = 0;  // dynamic shared memory
    ArgumentPack arguments;        // operand bytes marked; see ArgumentPack
};

// What one call did: the dtypes its operands were converted to, the outputs and scratch buffer
// it allocated, and its launches in order.
struct RecordedCall {
    std::string kernel;  // the kernel's name, for profiler ranges
    CallSignature signature;
    std::size_t inputs = 0;             // operands before the outputs
    std::vector<DType> operand_dtypes;  // in_params, then out_params
    Shape output_shape;                 // of the outputs a call does not pass
    // Those outputs' shape and strides, by operand (null for the others; share_output_geometries
    // makes them before the call is recorded): every replay's outputs share them, so that making
    // an output allocates only its memory.
    std::vector<std::shared_ptr<const ArrayGeometry>> output_geometries;
    std::vector<std::size_t> output_bytes;  // each such output's allocation, by operand
    std::int64_t scratch_bytes = 0;
    bool block_counter = false;  // the launches take the stream's (last_block_counters.hpp)
    std::vector<RecordedLaunch> launches;

    // Whether every launch's arguments are small enough to replay.
    [[nodiscard]] bool replayable() const noexcept;
    // Makes output_geometries for a call that passes its first `given` operands.
    void share_output_geometries(std::size_t given);
};

// A kernel object's recorded calls: the last few layouts it was called with.
class CallRecords {
public:
    [[nodiscard]] std::shared_ptr<const RecordedCall> find(const CallSignature& signature) const;
    void add(std::shared_ptr<const RecordedCall> call);

private:
    static constexpr std::size_t capacity = 8;
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<const RecordedCall>> calls_;
    std::size_t next_ = 0;
};

// Replays `call` on `stream`: `args` are the call's inputs, then any outputs it passes; `out`
// holds outputs passed apart from the arguments (ReductionKernel's out=). Allocates the outputs
// not passed, in the stream's order, and returns every output; or nothing, launching nothing,
// when the call took a block counter and `stream` has none now.
[[nodiscard]] std::optional<std::vector<ndarray>> replay(const RecordedCall& call,
                                                         std::span<const Argument> args,
                                                         std::span<const ndarray> out,
                                                         StreamView stream);

}  // namespace kiln::detail
