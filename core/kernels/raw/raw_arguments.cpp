#include "raw_arguments.hpp"

#include <kiln/error.hpp>
#include <kiln/float16.hpp>
#include <kiln/scalar.hpp>

#include <charconv>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace kiln::detail {

namespace {

bool is_integer(DType dtype) {
    return kind(dtype) == 'i' || kind(dtype) == 'u';
}

template <class T>
T read(const KernelArg& arg) {
    T value{};
    std::memcpy(&value, arg.address(), sizeof(T));
    return value;
}

// Calls f with a scalar argument's value in its own C++ type.
template <class F>
decltype(auto) visit_scalar(const KernelArg& arg, F f) {
    switch (*arg.dtype()) {
        case DType::bool_:
            return f(read<bool>(arg));
        case DType::int8:
            return f(read<std::int8_t>(arg));
        case DType::int16:
            return f(read<std::int16_t>(arg));
        case DType::int32:
            return f(read<std::int32_t>(arg));
        case DType::int64:
            return f(read<std::int64_t>(arg));
        case DType::uint8:
            return f(read<std::uint8_t>(arg));
        case DType::uint16:
            return f(read<std::uint16_t>(arg));
        case DType::uint32:
            return f(read<std::uint32_t>(arg));
        case DType::uint64:
            return f(read<std::uint64_t>(arg));
        case DType::float16:
            return f(read<half>(arg));
        case DType::float32:
            return f(read<float>(arg));
        case DType::float64:
            return f(read<double>(arg));
        case DType::complex64:
            return f(read<std::complex<float>>(arg));
        case DType::complex128:
            return f(read<std::complex<double>>(arg));
    }
    throw TypeError("kiln: RawKernel: an argument has an invalid dtype value " +
                    std::to_string(static_cast<int>(*arg.dtype())));
}

std::string text_of(double value) {
    std::array<char, 32> text{};
    const auto [end, ec] = std::to_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc{} ? std::string(text.data(), end) : std::string("?");
}

// A scalar argument's value as the user wrote it.
std::string value_text(const KernelArg& arg) {
    return visit_scalar(arg, [](auto v) -> std::string {
        using T = decltype(v);
        if constexpr (std::is_same_v<T, bool>) {
            return v ? "true" : "false";
        } else if constexpr (std::is_integral_v<T>) {
            return std::to_string(v);
        } else if constexpr (std::is_same_v<T, half>) {
            return text_of(static_cast<float>(v));
        } else if constexpr (std::is_floating_point_v<T>) {
            return text_of(v);
        } else {
            return "(" + text_of(v.real()) + (v.imag() < 0 ? "" : "+") + text_of(v.imag()) + "j)";
        }
    });
}

std::string describe(const KernelArg& arg) {
    switch (arg.kind()) {
        case KernelArg::Kind::array:
            return "an ndarray of " + std::string(name(*arg.dtype()));
        case KernelArg::Kind::scalar:
            return "a scalar of " + std::string(name(*arg.dtype())) + " (" + value_text(arg) + ")";
        case KernelArg::Kind::pointer:
            return arg.dtype() ? "a pointer to " + std::string(name(*arg.dtype())) : "a pointer";
    }
    return "an argument";
}

std::string argument_name(const std::string& kernel, std::size_t index, const KernelParameter& p) {
    return "kiln: RawKernel '" + kernel + "': argument " + std::to_string(index + 1) +
           (p.name.empty() ? "" : " ('" + p.name + "')");
}

// Whether an argument binds to the parameter as it is.
bool matches(const KernelArg& arg, const KernelParameter& p) {
    if (p.pointer) {
        return arg.kind() != KernelArg::Kind::scalar &&
               !(p.pointee && arg.dtype() && *arg.dtype() != *p.pointee);
    }
    if (p.scalar) {
        return arg.kind() == KernelArg::Kind::scalar && *arg.dtype() == *p.scalar;
    }
    return true;
}

// An integer scalar in the bytes of integer dtype `target`; TypeError when it does not fit.
ConvertedScalar convert_integer(const std::string& kernel, std::size_t index, const KernelArg& arg,
                                const KernelParameter& p) {
    const Scalar value = visit_scalar(arg, [](auto v) { return Scalar(v); });
    std::array<std::byte, 16> bytes{};
    try {
        bytes = value.bytes_as(*p.scalar);
    } catch (const TypeError&) {
        throw TypeError(argument_name(kernel, index, p) + " is " + describe(arg) +
                        ", out of range for the kernel's '" + p.text + "' (" +
                        std::string(name(*p.scalar)) + ")");
    }
    ConvertedScalar out{};
    std::memcpy(out.data(), bytes.data(), out.size());
    return out;
}

}  // namespace

std::optional<ConvertedScalar> bind_raw_argument(const std::string& kernel, std::size_t index,
                                                 const KernelArg& arg, const KernelParameter& p) {
    if (matches(arg, p)) {
        return std::nullopt;
    }
    const bool scalar = arg.kind() == KernelArg::Kind::scalar;
    if (scalar && p.scalar && is_integer(*arg.dtype()) && is_integer(*p.scalar)) {
        return convert_integer(kernel, index, arg, p);
    }
    throw TypeError(argument_name(kernel, index, p) + " is " + describe(arg) +
                    " but the kernel takes '" + p.text + "'" +
                    (!p.pointer && scalar ? ": pass a value of exactly that type" : ""));
}

}  // namespace kiln::detail
