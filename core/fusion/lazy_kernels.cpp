#include "lazy_kernels.hpp"

#include "../backend.hpp"
#include "../backend_traits.hpp"
#include "fused_function.hpp"
#include "fused_source.hpp"
#include "lazy_expression.hpp"
#include "rolled_chain.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::detail {

namespace {

// Everything the kernel's source depends on, node by node, as bytes: the ufunc and the routine
// by address (each is one static definition), so that the key is built without formatting.
// A rolled chain's key covers its first `nodes` and its bound on steps.
std::string structure(const Graph& graph, std::int32_t output, std::size_t nodes,
                      std::int32_t max_steps = 0) {
    constexpr std::size_t node_bytes = 64;  // a node without axes, rounded up
    std::string key;
    key.reserve((nodes + 1) * node_bytes);
    const auto append = [&key](const auto& value) {
        key.append(reinterpret_cast<const char*>(&value), sizeof(value));
    };
    append(output);
    append(max_steps);
    for (std::size_t id = 0; id < nodes; ++id) {
        const Node& node = graph.node(static_cast<std::int32_t>(id));
        append(node.kind);
        append(node.dtype);
        append(node.loop);
        append(node.argument);
        append(node.operands);
        append(std::bit_cast<std::uintptr_t>(node.ufunc));
        append(std::bit_cast<std::uintptr_t>(node.routine));
        append(node.value);
        append(node.all_axes);
        append(node.keepdims);
        append(node.axes.size());
        for (const int axis : node.axes) {
            append(axis);
        }
    }
    return key;
}

// The kernel `key` names, made by `define` on the first call for it. Never destroyed: kernels
// may be called while the process exits.
template <class Define>
const LazyKernel& kernel_of(std::string key, const Define& define) {
    static std::mutex mutex;
    static auto& kernels = *new std::unordered_map<std::string, std::unique_ptr<LazyKernel>>();
    const std::scoped_lock lock(mutex);
    auto found = kernels.find(key);
    if (found == kernels.end()) {
        const FusedDefinition fused = define();
        // Bits as eager: no operation contracted with the next.
        const auto rounding = traits(backend().kind()).separate_rounding;
        auto kernel = std::make_unique<LazyKernel>(LazyKernel{
            make_fused_kernel(fused, {rounding.begin(), rounding.end()}), fused.arguments});
        found = kernels.emplace(std::move(key), std::move(kernel)).first;
    }
    return *found->second;
}

// `chain` of `graph` computed from `arguments`: its rolled kernel for as many steps as an
// expression of the lazy bounds holds, so that every stretch of a loop, and its tail, share it.
ndarray run_rolled(const Graph& graph, const RolledChain& chain,
                   std::span<const Argument> arguments, StreamView stream) {
    const std::int32_t max_steps = std::max(chain.steps, max_lazy_length.scalars / chain.scalars);
    // The prefix and two steps: the second says which operands the step before carries.
    const std::int32_t keyed = chain.prefix + 2 * chain.period;
    const LazyKernel& lazy =
        kernel_of(structure(graph, keyed - 1, static_cast<std::size_t>(keyed), max_steps),
                  [&] { return define_rolled(graph, chain, max_steps); });
    const Scalar skipped(std::int64_t{0});
    const Scalar steps(std::int64_t{chain.steps});
    std::vector<Argument> taken;
    taken.reserve(lazy.arguments.size());
    for (const std::int32_t position : lazy.arguments) {
        const auto at = static_cast<std::size_t>(position);
        taken.push_back(at < arguments.size()               ? arguments[at]
                        : position == lazy.arguments.back() ? Argument(steps)
                                                            : Argument(skipped));
    }
    return run_lazy(lazy, taken, stream, {});
}

}  // namespace

const LazyKernel& lazy_kernel(const Graph& graph, std::int32_t output) {
    return kernel_of(structure(graph, output, graph.size()), [&] {
        const std::array<std::int32_t, 1> outputs{output};
        return define_fused(graph, outputs);
    });
}

ndarray run_lazy(const LazyKernel& kernel, std::span<const Argument> taken, StreamView stream,
                 const ReductionCallOptions& reduction) {
    if (const auto* reducing = std::get_if<ReductionKernel>(&kernel.kernel)) {
        ReductionCallOptions options = reduction;
        options.stream = stream;
        return reducing->outputs(taken, options).front();
    }
    CallOptions options;
    options.stream = stream;
    return std::get<ElementwiseKernel>(kernel.kernel).outputs(taken, options).front();
}

ndarray run_lazy(const Graph& graph, std::int32_t output, std::span<const Argument> arguments,
                 StreamView stream, const ReductionCallOptions& reduction) {
    if (const auto chain = find_rolled_chain(graph, output)) {
        return run_rolled(graph, *chain, arguments, stream);
    }
    const LazyKernel& lazy = lazy_kernel(graph, output);
    std::vector<Argument> taken;
    taken.reserve(lazy.arguments.size());
    for (const std::int32_t position : lazy.arguments) {
        taken.push_back(arguments[static_cast<std::size_t>(position)]);
    }
    return run_lazy(lazy, taken, stream, reduction);
}

}  // namespace kiln::detail
