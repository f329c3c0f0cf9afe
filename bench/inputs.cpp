#include "inputs.hpp"

#include "philox.hpp"

#include <algorithm>
#include <cstddef>
#include <thread>

namespace kiln::bench {

namespace {

std::size_t element_count(const Shape& shape) {
    std::int64_t count = 1;
    for (const auto extent : shape) {
        count *= extent;
    }
    return static_cast<std::size_t>(count);
}

// out[i] = draw(i), split over the host's threads.
template <class T, class Draw>
std::vector<T> draw_all(std::size_t count, const Draw& draw) {
    std::vector<T> out(count);
    const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
    const std::size_t per_thread = (count + threads - 1) / threads;
    std::vector<std::jthread> workers;
    for (std::size_t t = 0; t < threads && t * per_thread < count; ++t) {
        workers.emplace_back([&out, &draw, t, per_thread, count] {
            const std::size_t end = std::min(count, (t + 1) * per_thread);
            for (std::size_t i = t * per_thread; i < end; ++i) {
                out[i] = draw(i);
            }
        });
    }
    return out;
}

template <class T>
Input<T> finish(const Context& context, InputSpec spec, std::vector<T> host) {
    const std::size_t count = std::min<std::size_t>(host.size(), 4);
    spec.first.assign(host.begin(), host.begin() + static_cast<std::ptrdiff_t>(count));
    ndarray device;
    if (context.gpu) {
        device = array(std::span<const T>(host), spec.shape);
    }
    return {std::move(spec), std::move(host), std::move(device)};
}

}  // namespace

template <class T>
Input<T> uniform_input(const Context& context, std::string name, const Shape& shape, double high,
                       std::uint64_t seed) {
    InputSpec spec{std::move(name), "uniform", high, 0, seed, dtype_of<T>, shape, "", {}};
    return finish(context, std::move(spec), draw_all<T>(element_count(shape), [=](std::size_t i) {
                      return philox::uniform<T>(seed, i, 0.0, high);
                  }));
}

template <class T>
Input<T> normal_input(const Context& context, std::string name, const Shape& shape, double stddev,
                      std::uint64_t seed) {
    InputSpec spec{std::move(name), "normal", stddev, 0, seed, dtype_of<T>, shape, "", {}};
    return finish(context, std::move(spec), draw_all<T>(element_count(shape), [=](std::size_t i) {
                      return philox::normal<T>(seed, i, 0.0, stddev);
                  }));
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
    return finish(context, std::move(spec), draw_all<T>(element_count(shape), [=](std::size_t i) {
                      return philox::integer<T>(seed, i, low, high);
                  }));
}

Input<std::complex<double>> complex_normal_input(const Context& context, std::string name,
                                                 std::int64_t count, double stddev,
                                                 std::uint64_t seed) {
    InputSpec spec{std::move(name), "normal", stddev, 0, seed, float64, {count}, "complex128", {}};
    auto host = draw_all<std::complex<double>>(static_cast<std::size_t>(count), [=](std::size_t i) {
        return std::complex<double>(philox::normal<double>(seed, 2 * i, 0.0, stddev),
                                    philox::normal<double>(seed, 2 * i + 1, 0.0, stddev));
    });
    Input<std::complex<double>> input;
    for (std::size_t i = 0; i < std::min<std::size_t>(host.size(), 2); ++i) {
        spec.first.push_back(host[i].real());
        spec.first.push_back(host[i].imag());
    }
    input.spec = std::move(spec);
    if (context.gpu) {
        input.device = array(std::span<const std::complex<double>>(host), Shape{count});
    }
    input.host = std::move(host);
    return input;
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

}  // namespace kiln::bench
