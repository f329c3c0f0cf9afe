#include "collective_checks.hpp"

#include <kiln/error.hpp>
#include <kiln/shape.hpp>

#include <string>

namespace kiln::detail {

namespace {

std::string prefix(std::string_view operation, std::string_view argument) {
    return "kiln: Communicator." + std::string(operation) + ": argument '" + std::string(argument) +
           "' ";
}

void check_dtype(std::string_view operation, std::string_view argument, const ndarray& array,
                 DType expected, std::string_view whose) {
    if (array.dtype() != expected) {
        throw TypeError(prefix(operation, argument) + "has dtype " +
                        std::string(name(array.dtype())) + " but must have " + std::string(whose) +
                        "'s dtype " + std::string(name(expected)));
    }
}

}  // namespace

void check_buffer(std::string_view operation, std::string_view argument, const ndarray& array,
                  int device) {
    if (array.device() != device) {
        throw ValueError(prefix(operation, argument) + "is on device " +
                         std::to_string(array.device()) + " but the communicator is on device " +
                         std::to_string(device));
    }
    if (!array.c_contiguous()) {
        throw ValueError(prefix(operation, argument) +
                         "must be C-contiguous (the library sees one flat buffer; copy() makes "
                         "a contiguous array)");
    }
}

void check_like(std::string_view operation, const ndarray& in, const ndarray& out) {
    check_dtype(operation, "out", out, in.dtype(), "in");
    if (out.shape() != in.shape()) {
        throw ShapeError(prefix(operation, "out") + "has shape " + kiln::to_string(out.shape()) +
                         " but must have in's shape " + kiln::to_string(in.shape()));
    }
}

void check_count(std::string_view operation, std::string_view argument, const ndarray& array,
                 const ndarray& reference, std::int64_t elements, std::string_view why) {
    const std::string_view whose = argument == "in" ? "out" : "in";
    check_dtype(operation, argument, array, reference.dtype(), whose);
    if (array.size() != elements) {
        throw ShapeError(prefix(operation, argument) + "holds " + std::to_string(array.size()) +
                         " elements but must hold " + std::string(why) + " = " +
                         std::to_string(elements));
    }
}

void check_rank(std::string_view operation, std::string_view argument, int rank, int size) {
    if (rank < 0 || rank >= size) {
        throw ValueError(prefix(operation, argument) + "is " + std::to_string(rank) +
                         " but must be a rank in [0, " + std::to_string(size) + ")");
    }
}

}  // namespace kiln::detail
