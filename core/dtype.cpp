#include <kiln/dtype.hpp>
#include <kiln/error.hpp>

#include <ostream>
#include <string>

namespace kiln {

namespace detail {

void throw_invalid_dtype(std::string_view function, DType dtype) {
    throw TypeError("kiln: " + std::string(function) + ": invalid DType value " +
                    std::to_string(static_cast<unsigned>(dtype)) + ": expected 0.." +
                    std::to_string(dtype_traits.size() - 1) + " (kiln::bool_ .. kiln::complex128)");
}

void throw_invalid_casting(std::string_view function, Casting casting) {
    throw TypeError("kiln: " + std::string(function) + ": invalid Casting value " +
                    std::to_string(static_cast<unsigned>(casting)) +
                    ": expected Casting::no, equiv, safe, same_kind or unsafe");
}

}  // namespace detail

DType dtype_from_name(std::string_view text) {
    for (std::size_t index = 0; index < detail::dtype_traits.size(); ++index) {
        if (detail::dtype_traits.at(index).name == text) {
            return static_cast<DType>(index);
        }
    }
    if (text == "bool_") {
        return DType::bool_;
    }
    std::string valid;
    for (const auto& traits : detail::dtype_traits) {
        valid += valid.empty() ? "" : ", ";
        valid += traits.name;
    }
    throw TypeError("kiln: dtype_from_name: '" + std::string(text) +
                    "' is not a dtype name: expected one of " + valid + " (or bool_)");
}

std::ostream& operator<<(std::ostream& out, DType dtype) {
    return out << name(dtype);
}

}  // namespace kiln
