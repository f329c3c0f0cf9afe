#include "../../backend.hpp"
#include "../../compile/module_cache.hpp"
#include "../generated_kernel.hpp"
#include "../input_separation.hpp"
#include "reduction_call.hpp"
#include "reduction_dialect.hpp"
#include "reduction_launch_plan.hpp"

#include <kiln/error.hpp>
#include <kiln/reduction_kernel.hpp>

#include <string>

namespace kiln::detail {

// What ReductionKernel adds to the generated-kernel path: a reduce and a finish function per
// variant, and one or two launches planned by plan_reduction_launch.
struct Reduction {
    using Definition = ReductionDefinition;
    using Options = ReductionCallOptions;
    using Call = ReductionCall;
    struct Compiled {
        NativeFunction reduce = nullptr;
        NativeFunction finish = nullptr;
    };

    static Call prepare(const Definition& k, std::span<const Argument> args, const Options& options,
                        std::optional<int> device) {
        return prepare_reduction(k, args, options, device);
    }
    // Any output's element may be written before other outputs' reductions read the inputs.
    static std::optional<std::vector<Argument>> separate_inputs(const Definition& /*k*/,
                                                                std::span<const Argument> args,
                                                                const Options& options,
                                                                StreamView stream) {
        const auto all = [](std::size_t /*i*/) { return true; };
        const auto none = [](std::size_t /*i*/) { return false; };
        return detail::separate_inputs(args, options.out, all, none, false, stream);
    }
    static void sign(CallSignature& signature, const Options& options) {
        signature.add(options.axis.all() ? -1
                                         : static_cast<std::int64_t>(options.axis.axes().size()));
        for (const int axis : options.axis.axes()) {
            signature.add(axis);
        }
        signature.add(options.keepdims ? 1 : 0);
        signature.add(static_cast<std::int64_t>(options.out.size()));
        for (const ndarray& out : options.out) {
            signature.add(out);
        }
    }
    static std::span<const ndarray> passed_outputs(const Options& options) { return options.out; }
    static void allocate_outputs(const Definition& /*k*/, Call& call, StreamView stream) {
        allocate_reduction_outputs(call, stream);
    }
    static RecordedCall describe(const Definition& k, const Call& call) {
        RecordedCall recorded;
        recorded.kernel = k.name;
        recorded.inputs = k.in.size();
        recorded.operand_dtypes = call.variant.in_dtypes;
        recorded.operand_dtypes.insert(recorded.operand_dtypes.end(),
                                       call.variant.out_dtypes.begin(),
                                       call.variant.out_dtypes.end());
        recorded.output_shape = call.result_shape;
        return recorded;
    }
    static bool launches_nothing(const Call& call) { return call.m == 0; }
    static std::string variant_key(const Call& call) { return detail::variant_key(call.variant); }
    static std::string source(const Definition& k, const Call& call) {
        return reduction_source(k, call.variant);
    }
    static Compiled compile(const Definition& k, const Call& call, int device) {
        const std::string code = source(k, call);
        Compiled compiled;
        NativeModule module = cached_module(device, {code, k.name, k.options, {}}).module;
        auto& gpu = backend();
        compiled.reduce = gpu.get_function(device, module, k.name.c_str());
        compiled.finish = gpu.get_function(device, module, finish_name(k).c_str());
        return compiled;
    }
    static void launch(const Definition& /*k*/, Call& call, const Compiled& compiled,
                       KernelLauncher& launcher) {
        const ReductionShape shape{call.m, call.n, call.reduction_contiguous,
                                   call.variant.layout == ReductionLayout::columns};
        const KernelDialect& dialect = dialect_of(call.variant);
        const ReductionLaunchPlan plan =
            dialect.reduction.plan(shape, {launcher.multiprocessors(), dialect.resident_blocks});
        void* partials = nullptr;
        if (plan.split > 1) {
            const auto bytes =
                static_cast<std::int64_t>(reduce_type_size(call.variant.reduce_dtypes));
            partials = launcher.scratch(call.m * plan.split * bytes);
        }
        ReductionValues values = reduction_values(call, plan, partials);
        if (plan.last_block_finishes) {
            values.counter = launcher.block_counter();
        }
        const Dim3 block{static_cast<unsigned>(plan.block), 1, 1};
        launcher.launch(compiled.reduce,
                        {static_cast<unsigned>(plan.blocks), static_cast<unsigned>(plan.split), 1},
                        block, 0, reduce_arguments(call.variant, values));
        if (plan.split > 1 && values.counter == nullptr) {
            launcher.launch(compiled.finish, {static_cast<unsigned>(plan.finish_blocks), 1, 1},
                            block, 0, finish_arguments(call.variant, values));
        }
    }
    static std::vector<ndarray> outputs(const Definition& /*k*/, Call&& call) {
        return std::move(call.outputs);
    }

    // The shared state of a definition; messages name the kernel by `label` when given.
    static std::shared_ptr<GeneratedKernel<Reduction>> define(
        const std::string& in_params, const std::string& out_params, std::string map_expr,
        std::string reduce_expr, std::string post_map_expr, std::string identity, std::string name,
        const ReductionOptions& options, const std::optional<std::string>& label) {
        DefinitionKey key;
        key.add(in_params).add(out_params).add(map_expr).add(reduce_expr).add(post_map_expr);
        key.add(identity).add(name).add(options.reduce_type).add_flag(options.reduce_dims);
        key.add(options.preamble).add(options.options).add(label.value_or(""));
        return GeneratedKernel<Reduction>::shared(key, [&] {
            ReductionDefinition definition =
                define_reduction(in_params, out_params, std::move(map_expr), std::move(reduce_expr),
                                 std::move(post_map_expr), std::move(identity), std::move(name),
                                 options.reduce_type, options.preamble);
            definition.label = label.value_or(definition.label);
            definition.reduce_dims = options.reduce_dims;
            definition.options = options.options;
            return definition;
        });
    }
    static ReductionKernel kernel(std::shared_ptr<GeneratedKernel<Reduction>> state) {
        return ReductionKernel(std::move(state));
    }
};

ReductionKernel routine_reduction_kernel(const std::string& in_params,
                                         const std::string& out_params, std::string map_expr,
                                         std::string reduce_expr, std::string post_map_expr,
                                         std::string identity, std::string name,
                                         const ReductionOptions& options, std::string label) {
    return Reduction::kernel(Reduction::define(
        in_params, out_params, std::move(map_expr), std::move(reduce_expr),
        std::move(post_map_expr), std::move(identity), std::move(name), options, std::move(label)));
}

}  // namespace kiln::detail

namespace kiln {

ReductionKernel::ReductionKernel(const std::string& in_params, const std::string& out_params,
                                 std::string map_expr, std::string reduce_expr,
                                 std::string post_map_expr, std::string identity, std::string name,
                                 const ReductionOptions& options)
    : state_(detail::Reduction::define(
          in_params, out_params, std::move(map_expr), std::move(reduce_expr),
          std::move(post_map_expr), std::move(identity), std::move(name), options, std::nullopt)) {}

ReductionKernel::ReductionKernel(std::shared_ptr<detail::GeneratedKernel<detail::Reduction>> state)
    : state_(std::move(state)) {}

const std::string& ReductionKernel::name() const noexcept {
    return state_->definition().name;
}

ndarray ReductionKernel::operator()(std::initializer_list<Argument> args,
                                    const ReductionCallOptions& options) const {
    const detail::ReductionDefinition& k = state_->definition();
    if (k.out.size() != 1) {
        throw TypeError(detail::reduction_prefix(k) + "has " + std::to_string(k.out.size()) +
                        " outputs; call outputs() to get them all");
    }
    return outputs(std::span<const Argument>(args.begin(), args.size()), options).front();
}

std::string ReductionKernel::source(std::span<const Argument> args,
                                    const ReductionCallOptions& options) const {
    return state_->source(args, options);
}

std::vector<ndarray> ReductionKernel::outputs(std::span<const Argument> args,
                                              const ReductionCallOptions& options) const {
    return state_->call(args, options);
}

}  // namespace kiln
