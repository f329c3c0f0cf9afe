// The checks a Communicator makes of its arguments before calling the library, worded once. Each
// message opens with "kiln: Communicator.<operation>: " and names the argument and what was
// expected.
#pragma once

#include <kiln/ndarray.hpp>

#include <cstdint>
#include <string_view>

namespace kiln::detail {

// An array the library reads or writes: on the communicator's device (ValueError) and
// C-contiguous (ValueError: the library sees one flat buffer).
void check_buffer(std::string_view operation, std::string_view argument, const ndarray& array,
                  int device);

// `out` has `in`'s dtype (TypeError) and shape (ShapeError).
void check_like(std::string_view operation, const ndarray& in, const ndarray& out);

// `array` holds `elements` elements of `reference`'s dtype; `why` says where the count comes
// from ("size() x in.size()"). TypeError or ShapeError otherwise.
void check_count(std::string_view operation, std::string_view argument, const ndarray& array,
                 const ndarray& reference, std::int64_t elements, std::string_view why);

// A rank argument (root, peer) in [0, size): ValueError otherwise.
void check_rank(std::string_view operation, std::string_view argument, int rank, int size);

}  // namespace kiln::detail
