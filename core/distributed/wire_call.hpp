// How an ndarray's elements travel through NCCL/RCCL: the wire type, the element count and the
// reduction the library runs. Transfers move any dtype as bytes; reductions need a type the
// library reduces: bool as uint8 (sum and max are an or, prod and min an and), complex as pairs
// of reals (sum and avg only), no 16-bit integers.
#pragma once

#include "collectives.hpp"

#include <kiln/distributed/communicator.hpp>
#include <kiln/dtype.hpp>

#include <cstddef>
#include <string_view>

namespace kiln::detail {

struct WireCall {
    WireType type = WireType::uint8;
    std::size_t count = 0;
    distributed::ReduceOp op = distributed::ReduceOp::sum;
};

// `elements` of `dtype` moved unchanged (broadcast, all_gather, send, recv).
[[nodiscard]] WireCall transfer_wire(DType dtype, std::size_t elements);

// `elements` of `dtype` reduced by `op` in `operation` ("all_reduce"); TypeError naming the
// operation, the dtype and the operator when the library cannot reduce them.
[[nodiscard]] WireCall reduction_wire(std::string_view operation, DType dtype, std::size_t elements,
                                      distributed::ReduceOp op);

[[nodiscard]] std::string_view to_string(distributed::ReduceOp op);

}  // namespace kiln::detail
