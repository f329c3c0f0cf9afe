#include "wire_call.hpp"

#include <kiln/error.hpp>

#include <string>

namespace kiln::detail {

using distributed::ReduceOp;

namespace {

[[noreturn]] void refuse(std::string_view operation, DType dtype, ReduceOp op,
                         std::string_view why) {
    throw TypeError("kiln: Communicator." + std::string(operation) + ": cannot reduce " +
                    std::string(name(dtype)) + " with " + std::string(to_string(op)) + ": " +
                    std::string(why));
}

}  // namespace

std::string_view to_string(ReduceOp op) {
    switch (op) {
        case ReduceOp::sum:
            return "sum";
        case ReduceOp::prod:
            return "prod";
        case ReduceOp::max:
            return "max";
        case ReduceOp::min:
            return "min";
        case ReduceOp::avg:
            return "avg";
    }
    throw ValueError("kiln: Communicator: ReduceOp " + std::to_string(static_cast<int>(op)) +
                     " is not one of sum, prod, max, min, avg");
}

WireCall transfer_wire(DType dtype, std::size_t elements) {
    return {WireType::uint8, elements * itemsize(dtype), ReduceOp::sum};
}

WireCall reduction_wire(std::string_view operation, DType dtype, std::size_t elements,
                        ReduceOp op) {
    (void)to_string(op);  // an invalid operator is a ValueError before any dtype question
    switch (dtype) {
        case DType::bool_:
            switch (op) {
                case ReduceOp::sum:
                case ReduceOp::max:
                    return {WireType::uint8, elements, ReduceOp::max};
                case ReduceOp::prod:
                case ReduceOp::min:
                    return {WireType::uint8, elements, ReduceOp::min};
                case ReduceOp::avg:
                    break;
            }
            refuse(operation, dtype, op, "a bool array has no average (cast it to a number type)");
        case DType::int8:
            return {WireType::int8, elements, op};
        case DType::uint8:
            return {WireType::uint8, elements, op};
        case DType::int32:
            return {WireType::int32, elements, op};
        case DType::uint32:
            return {WireType::uint32, elements, op};
        case DType::int64:
            return {WireType::int64, elements, op};
        case DType::uint64:
            return {WireType::uint64, elements, op};
        case DType::float16:
            return {WireType::float16, elements, op};
        case DType::float32:
            return {WireType::float32, elements, op};
        case DType::float64:
            return {WireType::float64, elements, op};
        case DType::int16:
        case DType::uint16:
            refuse(operation, dtype, op,
                   "NCCL and RCCL have no 16-bit integer type (cast to int32 first)");
        case DType::complex64:
        case DType::complex128:
            if (op != ReduceOp::sum && op != ReduceOp::avg) {
                refuse(operation, dtype, op,
                       "complex numbers are reduced as pairs of reals, which only sum and avg "
                       "respect");
            }
            return {dtype == DType::complex64 ? WireType::float32 : WireType::float64, elements * 2,
                    op};
    }
    throw_invalid_dtype("Communicator." + std::string(operation), dtype);
}

}  // namespace kiln::detail
