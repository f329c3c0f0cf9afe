#include "call_checks.hpp"

#include "../call_context.hpp"
#include "../layout.hpp"

#include <kiln/error.hpp>

#include <limits>

namespace kiln::detail {

std::vector<ndarray> output_arguments(const std::string& prefix, const std::vector<ParamSpec>& in,
                                      const std::vector<ParamSpec>& out,
                                      std::span<const Argument> args) {
    const std::size_t nin = in.size();
    const std::size_t nout = out.size();
    if (args.size() != nin && args.size() != nin + nout) {
        throw TypeError(prefix + "takes " + std::to_string(nin) + " inputs (then " +
                        std::to_string(nout) + " outputs, optionally), got " +
                        std::to_string(args.size()) + " arguments");
    }
    std::vector<ndarray> outputs;
    for (std::size_t a = nin; a < args.size(); ++a) {
        const auto* array = std::get_if<ndarray>(&args[a]);
        if (array == nullptr) {
            throw TypeError(prefix + "output '" + out[a - nin].name +
                            "' must be an ndarray, got a scalar");
        }
        outputs.push_back(*array);
    }
    return outputs;
}

std::map<std::string, DType, std::less<>> bind_arguments(const std::string& kernel,
                                                         const std::vector<ParamSpec>& in,
                                                         const std::vector<ParamSpec>& out,
                                                         std::span<const Argument> args,
                                                         std::span<const ndarray> outputs) {
    std::vector<ArgumentType> in_types;
    std::vector<ArgumentType> out_types;
    for (std::size_t a = 0; a < in.size(); ++a) {
        if (const auto* array = std::get_if<ndarray>(&args[a])) {
            in_types.push_back({ArgumentType::array, array->dtype()});
        } else {
            in_types.push_back({ArgumentType::scalar, std::get<Scalar>(args[a]).dtype()});
        }
    }
    for (const ndarray& output : outputs) {
        out_types.push_back({ArgumentType::array, output.dtype()});
    }
    return bind_types(kernel, in, out, in_types, out_types);
}

void check_dtype(const std::string& prefix, const char* role, const std::string& name,
                 const ndarray& array, DType dtype) {
    if (array.dtype() != dtype) {
        throw TypeError(prefix + role + " '" + name + "' is " +
                        std::string(kiln::name(array.dtype())) + " but must be " +
                        std::string(kiln::name(dtype)));
    }
}

void check_device(const std::string& prefix, const std::string& name, const ndarray& array,
                  std::optional<int> device) {
    if (!device) {
        return;  // only the source is wanted: nothing runs
    }
    if (!reachable(*device, array.device())) {
        throw Error(prefix + "argument '" + name + "' is on device " +
                    std::to_string(array.device()) + ", which device " + std::to_string(*device) +
                    " (where the kernel runs) cannot access; move it there with to_device");
    }
}

void check_array(const std::string& prefix, const char* role, const std::string& name,
                 const ndarray& array, DType dtype, std::optional<int> device) {
    check_dtype(prefix, role, name, array, dtype);
    check_device(prefix, name, array, device);
}

void check_output_shape(const std::string& prefix, const std::string& name, const ndarray& array,
                        const Shape& result) {
    if (array.shape() != result) {
        throw ShapeError(prefix + "output '" + name + "' has shape " + to_string(array.shape()) +
                         " but the result's shape is " + to_string(result));
    }
}

Shape broadcast_arguments(const std::string& prefix, const std::vector<Shape>& shapes,
                          const char* what) {
    try {
        return broadcast_shapes(shapes);
    } catch (const ShapeError&) {
        std::string list;
        for (const auto& shape : shapes) {
            list += " " + to_string(shape);
        }
        throw ShapeError(prefix + what + " could not be broadcast together with shapes" + list);
    }
}

bool fits_32_bit_indices(std::int64_t elements, std::int64_t extent) noexcept {
    constexpr std::int64_t limit32 = std::numeric_limits<std::int32_t>::max();
    constexpr std::int64_t count32 = std::int64_t{1} << 30;
    return elements <= count32 && extent < limit32;
}

}  // namespace kiln::detail
