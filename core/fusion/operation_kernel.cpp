#include "operation_kernel.hpp"

#include "lazy_kernels.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace kiln::detail {

namespace {

constexpr std::size_t max_operands = 3;

// Everything the graph of one operation over arguments holds: the operation, and each
// operand's kind, dtype and argument position (an array read twice is one argument).
struct OperationKey {
    NodeKind kind{};
    const UfuncDefinition* ufunc = nullptr;
    DType loop{};
    DType dtype{};
    std::array<std::int8_t, max_operands> argument{-1, -1, -1};
    std::array<bool, max_operands> scalar{};
    std::array<DType, max_operands> operand_dtype{};

    bool operator==(const OperationKey&) const = default;
};

struct OperationKeyHash {
    std::size_t operator()(const OperationKey& key) const noexcept {
        std::size_t hash = std::hash<const void*>()(key.ufunc);
        const auto mix = [&hash](std::size_t value) {
            hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6U) + (hash >> 2U);
        };
        mix(static_cast<std::size_t>(key.kind));
        mix(static_cast<std::size_t>(key.loop));
        mix(static_cast<std::size_t>(key.dtype));
        for (std::size_t o = 0; o < max_operands; ++o) {
            mix(static_cast<std::size_t>(key.argument.at(o) + 1));
            mix(static_cast<std::size_t>(key.scalar.at(o)));
            mix(static_cast<std::size_t>(key.operand_dtype.at(o)));
        }
        return hash;
    }
};

// The kernels found by key; each is also lazy_kernel's, which never destroys it. The last one
// this thread found is kept by the thread, without the lock: a loop mostly repeats one operation.
const LazyKernel* find_kernel(const OperationKey& key, const LazyOperation& operation) {
    thread_local OperationKey last_key;
    thread_local const LazyKernel* last = nullptr;
    if (last != nullptr && last_key == key) {
        return last;
    }
    static std::mutex mutex;
    static auto& kernels =
        *new std::unordered_map<OperationKey, const LazyKernel*, OperationKeyHash>();
    const LazyKernel* kernel = nullptr;
    {
        const std::scoped_lock lock(mutex);
        if (const auto found = kernels.find(key); found != kernels.end()) {
            kernel = found->second;
        }
    }
    if (kernel == nullptr) {
        LazyGraph graph;
        const std::int32_t output = graph.add(operation);
        kernel = &lazy_kernel(graph.graph(), output);
        const std::scoped_lock lock(mutex);
        kernels.emplace(key, kernel);
    }
    last_key = key;
    last = kernel;
    return kernel;
}

}  // namespace

ndarray run_operation(const LazyOperation& operation, StreamView stream) {
    const std::size_t count = operation.operands.size();
    OperationKey key;
    key.kind = operation.kind;
    key.ufunc = operation.ufunc;
    key.loop = operation.loop;
    key.dtype = operation.dtype;
    std::array<const Argument*, max_operands> arguments{};
    std::size_t unique = 0;
    for (std::size_t o = 0; o < count; ++o) {
        const Argument& operand = operation.operands.at(o);
        std::size_t position = unique;
        if (const auto* scalar = std::get_if<Scalar>(&operand)) {
            key.scalar.at(o) = true;
            key.operand_dtype.at(o) = scalar->dtype();
        } else {
            const auto& array = std::get<ndarray>(operand);
            key.operand_dtype.at(o) = array.dtype();
            for (std::size_t i = 0; i < unique; ++i) {
                const auto* seen = std::get_if<ndarray>(arguments.at(i));
                if (seen != nullptr && same_view(*seen, array)) {
                    position = i;
                    break;
                }
            }
        }
        if (position == unique) {
            arguments.at(unique++) = &operand;
        }
        key.argument.at(o) = static_cast<std::int8_t>(position);
    }
    const LazyKernel& kernel = *find_kernel(key, operation);
    // The operands themselves when the kernel takes each once, in order, as is usual.
    bool in_order = unique == count && kernel.arguments.size() == count;
    for (std::size_t i = 0; in_order && i < count; ++i) {
        in_order = kernel.arguments[i] == static_cast<std::int32_t>(i);
    }
    if (in_order) {
        return run_lazy(kernel, std::span(operation.operands.data(), count), stream, {});
    }
    std::vector<Argument> taken;
    taken.reserve(kernel.arguments.size());
    for (const std::int32_t position : kernel.arguments) {
        taken.push_back(*arguments.at(static_cast<std::size_t>(position)));
    }
    return run_lazy(kernel, taken, stream, {});
}

}  // namespace kiln::detail
