// Seeded inputs, identical for kiln and its Kokkos reference: drawn with kiln::random on the
// device and copied to the host for the reference, or, without a GPU, drawn by kiln::random's
// host twins (the same numbers).
#pragma once

#include "context.hpp"
#include "record.hpp"

#include <kiln/ndarray.hpp>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::bench {

template <class T>
struct Input {
    InputSpec spec;
    std::vector<T> host;  // C order
    ndarray device;       // empty without a GPU
};

// Uniform in [0, high).
template <class T>
[[nodiscard]] Input<T> uniform_input(const Context& context, std::string name, const Shape& shape,
                                     double high, std::uint64_t seed);
// Normal with mean 0.
template <class T>
[[nodiscard]] Input<T> normal_input(const Context& context, std::string name, const Shape& shape,
                                    double stddev, std::uint64_t seed);
// Integers in [low, high).
template <class T>
[[nodiscard]] Input<T> integers_input(const Context& context, std::string name, const Shape& shape,
                                      std::int64_t low, std::int64_t high, std::uint64_t seed);
// Complex values (complex<float> or complex<double>) whose real and imaginary parts are
// consecutive draws of T: normal with mean 0, or uniform in [0, high).
template <class T>
[[nodiscard]] Input<std::complex<T>> complex_normal_input(const Context& context, std::string name,
                                                          std::int64_t count, double stddev,
                                                          std::uint64_t seed);
template <class T>
[[nodiscard]] Input<std::complex<T>> complex_uniform_input(const Context& context, std::string name,
                                                           std::int64_t count, double high,
                                                           std::uint64_t seed);

}  // namespace kiln::bench
