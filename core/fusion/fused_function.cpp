// A fused function's kernels: per key (argument dtypes, ranks, scalar kinds) the trace is run
// once, defined as an ElementwiseKernel or a ReductionKernel and kept; a call finds it in a small
// table and calls it, with no tracing and no source.
#include "fused_function.hpp"

#include "../kernels/call_memo.hpp"
#include "fused_source.hpp"
#include "graph.hpp"

#include <kiln/elementwise_kernel.hpp>
#include <kiln/error.hpp>
#include <kiln/fuse.hpp>
#include <kiln/reduction_kernel.hpp>

#include <algorithm>
#include <mutex>
#include <variant>

namespace kiln::detail {

FusedKernelObject make_fused_kernel(const FusedDefinition& fused,
                                    const std::vector<std::string>& compiler_options) {
    if (fused.reduction) {
        ReductionOptions options;
        options.reduce_type = fused.reduce_type;
        options.preamble = fused.preamble;
        options.options = compiler_options;
        return ReductionKernel(fused.in_params, fused.out_params, fused.map_expr, fused.reduce_expr,
                               fused.post_map_expr, fused.identity, fused.name, options);
    }
    ElementwiseOptions options;
    options.preamble = fused.preamble;
    options.options = compiler_options;
    return ElementwiseKernel(fused.in_params, fused.out_params, fused.operation, fused.name,
                             options);
}

class FusedKernel {
public:
    explicit FusedKernel(const FusedDefinition& fused)
        : kernel_(make_fused_kernel(fused)),
          arguments_(fused.arguments),
          scalars_only_(fused.scalars_only) {
        options_.axis = fused.axis;
        options_.keepdims = fused.keepdims;
    }

    [[nodiscard]] std::vector<ndarray> run(std::span<const Argument> args) const {
        if (arguments_.size() == args.size()) {
            return run_taken(args);
        }
        // The expression leaves some arguments unread: the kernel does not take them.
        std::vector<Argument> taken;
        taken.reserve(arguments_.size());
        for (const std::int32_t position : arguments_) {
            taken.push_back(args[static_cast<std::size_t>(position)]);
        }
        return run_taken(taken);
    }

private:
    [[nodiscard]] std::vector<ndarray> run_taken(std::span<const Argument> args) const {
        if (const auto* reduction = std::get_if<ReductionKernel>(&kernel_)) {
            return reduction->outputs(args, options_);
        }
        const auto& elementwise = std::get<ElementwiseKernel>(kernel_);
        if (!scalars_only_) {
            return elementwise.outputs(args);
        }
        // Scalars alone: one element, returned 0-d as the eager ufuncs return it.
        CallOptions one;
        one.size = 1;
        std::vector<ndarray> outputs = elementwise.outputs(args, one);
        for (ndarray& output : outputs) {
            output = output.reshape({});
        }
        return outputs;
    }

    FusedKernelObject kernel_;
    ReductionCallOptions options_;
    std::vector<std::int32_t> arguments_;
    bool scalars_only_;
};

struct FusedFunction::State {
    std::string name;
    std::uint64_t serial = new_call_owner_serial();
    mutable std::mutex mutex;
    // Few keys per function: a short list scanned in order.
    std::vector<std::pair<FusionKey, std::unique_ptr<FusedKernel>>> kernels;
};

FusedFunction::FusedFunction(std::string name) : state_(std::make_unique<State>()) {
    state_->name = std::move(name);
}

FusedFunction::~FusedFunction() = default;

const std::string& FusedFunction::name() const noexcept {
    return state_->name;
}

const FusedKernel* FusedFunction::find(const FusionKey& key) const noexcept {
    // A thread's last kernel, without the lock: a loop calls one function with one key. Kernels
    // are never removed while their function lives, and its serial is never reused after.
    struct Last {
        std::uint64_t owner = 0;
        FusionKey key;
        const FusedKernel* kernel = nullptr;
    };
    thread_local Last last;
    if (last.owner == state_->serial && last.key == key) {
        return last.kernel;
    }
    const std::scoped_lock lock(state_->mutex);
    for (const auto& [known, kernel] : state_->kernels) {
        if (known == key) {
            last = {state_->serial, key, kernel.get()};
            return kernel.get();
        }
    }
    return nullptr;
}

std::size_t FusedFunction::kernel_count() const {
    const std::scoped_lock lock(state_->mutex);
    return state_->kernels.size();
}

FusedDefinition trace_fused(const std::string& name, const FusionKey& key,
                            const FusionTrace& trace) {
    Graph graph(name);
    std::vector<fusion::Var> vars;
    {
        const TraceScope scope(graph);
        for (std::size_t a = 0; a < key.count; ++a) {
            const std::uint16_t code = key.codes.at(a);
            Node argument;
            argument.kind = (code & fusion_scalar_bit) != 0 ? NodeKind::scalar : NodeKind::array;
            argument.dtype = static_cast<DType>(code & 0x1FU);
            argument.argument = static_cast<std::int32_t>(a);
            vars.emplace_back(graph.add(argument));
        }
        vars = trace(vars);
    }
    std::vector<std::int32_t> outputs;
    outputs.reserve(vars.size());
    for (const fusion::Var& var : vars) {
        (void)graph.node(var.node());
        outputs.push_back(var.node());
    }
    return define_fused(graph, outputs);
}

const FusedKernel& FusedFunction::add(const FusionKey& key, const FusionTrace& trace) {
    const std::scoped_lock lock(state_->mutex);
    for (const auto& [known, kernel] : state_->kernels) {
        if (known == key) {
            return *kernel;
        }
    }
    auto kernel = std::make_unique<FusedKernel>(trace_fused(state_->name, key, trace));
    state_->kernels.emplace_back(key, std::move(kernel));
    return *state_->kernels.back().second;
}

std::vector<ndarray> run_fused(const FusedKernel& kernel, std::span<const Argument> args) {
    return kernel.run(args);
}

}  // namespace kiln::detail
