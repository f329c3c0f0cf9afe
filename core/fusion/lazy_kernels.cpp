#include "lazy_kernels.hpp"

#include "../backend.hpp"
#include "../backend_traits.hpp"
#include "fused_function.hpp"
#include "fused_source.hpp"

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
std::string structure(const Graph& graph, std::int32_t output) {
    constexpr std::size_t node_bytes = 64;  // a node without axes, rounded up
    std::string key;
    key.reserve((graph.size() + 1) * node_bytes);
    const auto append = [&key](const auto& value) {
        key.append(reinterpret_cast<const char*>(&value), sizeof(value));
    };
    append(output);
    for (std::size_t id = 0; id < graph.size(); ++id) {
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

}  // namespace

const LazyKernel& lazy_kernel(const Graph& graph, std::int32_t output) {
    static std::mutex mutex;
    static auto& kernels = *new std::unordered_map<std::string, std::unique_ptr<LazyKernel>>();
    std::string key = structure(graph, output);
    const std::scoped_lock lock(mutex);
    auto found = kernels.find(key);
    if (found == kernels.end()) {
        const std::array<std::int32_t, 1> outputs{output};
        const FusedDefinition fused = define_fused(graph, outputs);
        // Bits as eager: no operation contracted with the next.
        const auto rounding = traits(backend().kind()).separate_rounding;
        auto kernel = std::make_unique<LazyKernel>(LazyKernel{
            make_fused_kernel(fused, {rounding.begin(), rounding.end()}), fused.arguments});
        found = kernels.emplace(std::move(key), std::move(kernel)).first;
    }
    return *found->second;
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
    const LazyKernel& lazy = lazy_kernel(graph, output);
    std::vector<Argument> taken;
    taken.reserve(lazy.arguments.size());
    for (const std::int32_t position : lazy.arguments) {
        taken.push_back(arguments[static_cast<std::size_t>(position)]);
    }
    return run_lazy(lazy, taken, stream, reduction);
}

}  // namespace kiln::detail
