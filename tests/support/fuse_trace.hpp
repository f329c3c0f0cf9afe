// Tracing a fused function with no device, for the tests that inspect or compile what it
// defines: arrays without memory (enough for keys and traces) and a trace of a lambda.
#pragma once

#include "core/fusion/fused_function.hpp"

#include <kiln/fuse.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace kiln::test {

// An array of `dtype` and rank `ndim` (extent 2 on every axis) with no memory.
inline ndarray memoryless_array(DType dtype, std::size_t ndim) {
    const Shape shape(ndim, 2);
    const Strides strides(ndim, static_cast<std::int64_t>(itemsize(dtype)));
    return {nullptr, dtype, shape, strides, 0, 0};
}

template <class F, std::size_t... I>
std::vector<fusion::Var> traced_results(const F& f, std::span<const fusion::Var> vars,
                                        std::index_sequence<I...> /*indices*/) {
    const auto result = f(vars[I]...);
    if constexpr (std::is_same_v<std::remove_cv_t<decltype(result)>, fusion::Var>) {
        return {result};
    } else {
        return std::apply([](const auto&... r) { return std::vector<fusion::Var>{r...}; }, result);
    }
}

struct Traced {
    detail::FusedDefinition fused;
    detail::FusionKey key;
};

// What `f` defines for arguments like `args`, under `name`.
template <class F, class... A>
Traced trace(const std::string& name, const F& f, const A&... args) {
    const detail::FusionKey key = detail::fusion_key(args...);
    return {detail::trace_fused(name, key,
                                [&](std::span<const fusion::Var> vars) {
                                    return traced_results(f, vars, std::index_sequence_for<A...>{});
                                }),
            key};
}

}  // namespace kiln::test
