// Generated kernels name dtypes as CuPy does (`complex<float>`, `float16`), unqualified, and
// kernel bodies call complex functions as CuPy's do (`abs(z)`, `polar(r, theta)`).
#ifndef KILN_DEVICE_H
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
