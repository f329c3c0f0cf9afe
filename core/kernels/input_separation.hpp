// NumPy's guarantee for a call whose output overlaps an input (a += a[::-1], add(a[1:], a[:-1],
// out=a[:-1])): the result is that of separate memory. A GPU kernel reads and writes in no set
// order, so an input that may share memory with what the call writes is copied first, on the
// call's stream. An elementwise input with exactly the output's elements (data, shape, strides
// and item size) stays: each element is read by the thread that writes it, before it writes it.
#pragma once

#include "builtin/array_copy.hpp"

#include <kiln/argument.hpp>
#include <kiln/memory_overlap.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <variant>
#include <vector>

namespace kiln::detail {

// Whether reading `input` while writing `output` needs a copy of `input` first.
[[nodiscard]] inline bool needs_separate_input(const ndarray& input, const ndarray& output,
                                               bool elementwise) {
    const bool same_elements = input.data() == output.data() && input.shape() == output.shape() &&
                               input.strides() == output.strides() &&
                               input.itemsize() == output.itemsize();
    return !(elementwise && same_elements) && may_share_memory(input, output);
}

// `args` with every input (`reads(i)`) that needs_separate_input from an argument the call writes
// (`writes(i)`) or from `apart` (outputs passed apart from the arguments) replaced by a
// C-contiguous copy made on `stream`; nothing when no input needs one, so the usual call
// allocates nothing.
template <class Reads, class Writes>
[[nodiscard]] std::optional<std::vector<Argument>> separate_inputs(
    std::span<const Argument> args, std::span<const ndarray> apart, const Reads& reads,
    const Writes& writes, bool elementwise, StreamView stream) {
    std::optional<std::vector<Argument>> separated;
    bool writes_an_array = !apart.empty();
    for (std::size_t j = 0; j < args.size() && !writes_an_array; ++j) {
        writes_an_array = writes(j) && std::holds_alternative<ndarray>(args[j]);
    }
    if (!writes_an_array) {
        return separated;  // the usual call: it writes only the outputs it allocates
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto* input = std::get_if<ndarray>(&args[i]);
        if (input == nullptr || !reads(i)) {
            continue;
        }
        bool overlaps = false;
        for (std::size_t j = 0; j < args.size() && !overlaps; ++j) {
            const auto* output = std::get_if<ndarray>(&args[j]);
            overlaps = j != i && output != nullptr && writes(j) &&
                       needs_separate_input(*input, *output, elementwise);
        }
        for (const ndarray& output : apart) {
            overlaps = overlaps || needs_separate_input(*input, output, elementwise);
        }
        if (overlaps) {
            if (!separated) {
                separated.emplace(args.begin(), args.end());
            }
            (*separated)[i] = astype_on(*input, input->dtype(), stream);
        }
    }
    return separated;
}

}  // namespace kiln::detail
