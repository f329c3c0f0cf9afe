#include "inputs.hpp"

#include <kiln/random.hpp>

#include <algorithm>
#include <cstddef>

namespace kiln::bench {

namespace {

std::size_t element_count(const Shape& shape) {
    std::int64_t count = 1;
    for (const auto extent : shape) {
        count *= extent;
    }
    return static_cast<std::size_t>(count);
}

// With a GPU the device draw is copied back for the reference; without one the host twin draws
// the same numbers.
template <class T, class DeviceDraw, class HostDraw>
Input<T> draw(const Context& context, InputSpec spec, const DeviceDraw& device_draw,
              const HostDraw& host_draw) {
    Input<T> input;
    if (context.gpu) {
        input.device = device_draw();
        input.host = input.device.template get<T>();
    } else {
        input.host = host_draw(element_count(spec.shape));
    }
    const std::size_t count = std::min<std::size_t>(input.host.size(), 4);
    spec.first.assign(input.host.begin(), input.host.begin() + static_cast<std::ptrdiff_t>(count));
    input.spec = std::move(spec);
    return input;
}

}  // namespace

template <class T>
Input<T> uniform_input(const Context& context, std::string name, const Shape& shape, double high,
                       std::uint64_t seed) {
    return draw<T>(
        context, {std::move(name), "uniform", high, 0, seed, dtype_of<T>, shape, "", {}},
        [&] { return random::uniform(shape, 0, high, seed, dtype_of<T>); },
        [&](std::size_t count) { return random::uniform_host<T>(count, 0, high, seed); });
}

template <class T>
Input<T> normal_input(const Context& context, std::string name, const Shape& shape, double stddev,
                      std::uint64_t seed) {
    return draw<T>(
        context, {std::move(name), "normal", stddev, 0, seed, dtype_of<T>, shape, "", {}},
        [&] { return random::normal(shape, 0, stddev, seed, dtype_of<T>); },
        [&](std::size_t count) { return random::normal_host<T>(count, 0, stddev, seed); });
}

template <class T>
Input<T> integers_input(const Context& context, std::string name, const Shape& shape,
                        std::int64_t low, std::int64_t high, std::uint64_t seed) {
    InputSpec spec{std::move(name),
                   "integers",
                   static_cast<double>(low),
                   static_cast<double>(high),
                   seed,
                   dtype_of<T>,
                   shape,
                   "",
                   {}};
    return draw<T>(
        context, std::move(spec),
        [&] { return random::integers(shape, low, high, seed, dtype_of<T>); },
        [&](std::size_t count) { return random::integers_host<T>(count, low, high, seed); });
}

namespace {

// The (count, 2) draw of parts read as `count` complex numbers; on the device, a complex view
// of the same memory.
template <class T>
Input<std::complex<T>> complex_view(const Context& context, Input<T> parts, std::int64_t count) {
    Input<std::complex<T>> input;
    input.spec = std::move(parts.spec);
    input.spec.shape = {count};
    input.spec.view = name(dtype_of<std::complex<T>>);
    input.host.resize(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < input.host.size(); ++i) {
        input.host[i] = {parts.host[2 * i], parts.host[2 * i + 1]};
    }
    if (context.gpu) {
        // The complex view of the pairs keeps their array alive through its deleter.
        const ndarray pairs = parts.device;
        input.device = from_pointer(pairs.data(), {count}, dtype_of<std::complex<T>>, std::nullopt,
                                    [pairs](void* /*data*/) {});
    }
    return input;
}

}  // namespace

template <class T>
Input<std::complex<T>> complex_normal_input(const Context& context, std::string name,
                                            std::int64_t count, double stddev, std::uint64_t seed) {
    return complex_view(context,
                        normal_input<T>(context, std::move(name), {count, 2}, stddev, seed), count);
}

template <class T>
Input<std::complex<T>> complex_uniform_input(const Context& context, std::string name,
                                             std::int64_t count, double high, std::uint64_t seed) {
    return complex_view(context, uniform_input<T>(context, std::move(name), {count, 2}, high, seed),
                        count);
}

template Input<float> uniform_input<float>(const Context&, std::string, const Shape&, double,
                                           std::uint64_t);
template Input<double> uniform_input<double>(const Context&, std::string, const Shape&, double,
                                             std::uint64_t);
template Input<float> normal_input<float>(const Context&, std::string, const Shape&, double,
                                          std::uint64_t);
template Input<double> normal_input<double>(const Context&, std::string, const Shape&, double,
                                            std::uint64_t);
template Input<std::int32_t> integers_input<std::int32_t>(const Context&, std::string, const Shape&,
                                                          std::int64_t, std::int64_t,
                                                          std::uint64_t);
template Input<std::complex<float>> complex_normal_input<float>(const Context&, std::string,
                                                                std::int64_t, double,
                                                                std::uint64_t);
template Input<std::complex<double>> complex_normal_input<double>(const Context&, std::string,
                                                                  std::int64_t, double,
                                                                  std::uint64_t);
template Input<std::complex<float>> complex_uniform_input<float>(const Context&, std::string,
                                                                 std::int64_t, double,
                                                                 std::uint64_t);
template Input<std::complex<double>> complex_uniform_input<double>(const Context&, std::string,
                                                                   std::int64_t, double,
                                                                   std::uint64_t);

}  // namespace kiln::bench
