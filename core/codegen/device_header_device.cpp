#include "device_header_texts.hpp"

namespace kiln::detail::header_text {

namespace {

// Generated kernels name dtypes as CuPy does (`complex<float>`, `float16`), unqualified, and
// kernel bodies call complex functions as CuPy's do (`abs(z)`, `polar(r, theta)`).
constexpr std::string_view text = R"kiln(#ifndef KILN_DEVICE_H
#define KILN_DEVICE_H

#include <kiln/atomic.h>
#include <kiln/complex.h>
#include <kiln/float16.h>
#include <kiln/limits.h>
#include <kiln/warp.h>

using kiln::complex;
using kiln::float16;
// The functions of a complex argument are found through it; polar takes only reals.
using kiln::polar;

#endif
)kiln";

}  // namespace

std::string_view device_h() noexcept {
    return text;
}

}  // namespace kiln::detail::header_text
