#include <kiln/error.hpp>
#include <kiln/shape.hpp>

#include <algorithm>
#include <cstddef>

namespace kiln {

namespace {

std::string listed(std::span<const Shape> shapes) {
    std::string text;
    for (const Shape& shape : shapes) {
        text += (text.empty() ? "" : " ") + to_string(shape);
    }
    return text;
}

}  // namespace

Shape broadcast_shapes(std::span<const Shape> shapes) {
    std::size_t ndim = 0;
    for (const Shape& shape : shapes) {
        if (std::ranges::any_of(shape, [](std::int64_t extent) { return extent < 0; })) {
            throw ShapeError(
                "kiln: broadcast_shapes: negative dimensions are not allowed in shape " +
                to_string(shape));
        }
        ndim = std::max(ndim, shape.size());
    }
    // Extents are aligned at the last axis; an axis a shape lacks acts as extent 1.
    Shape result(ndim, 1);
    for (const Shape& shape : shapes) {
        const std::size_t lead = ndim - shape.size();
        for (std::size_t i = 0; i < shape.size(); ++i) {
            std::int64_t& extent = result[lead + i];
            if (shape[i] == extent || shape[i] == 1) {
                continue;
            }
            if (extent != 1) {
                throw ShapeError("kiln: operands could not be broadcast together with shapes " +
                                 listed(shapes));
            }
            extent = shape[i];
        }
    }
    return result;
}

std::string to_string(const Shape& shape) {
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
    }
    return text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace kiln
