#include "../../compile/module_cache.hpp"
#include "../generated_kernel.hpp"
#include "../input_separation.hpp"
#include "elementwise_call.hpp"
#include "elementwise_dialect.hpp"

#include <kiln/elementwise_kernel.hpp>
#include <kiln/error.hpp>

#include <iterator>
#include <string>

namespace kiln::detail {

// What ElementwiseKernel adds to the generated-kernel path: one function per variant, one launch.
struct Elementwise {
    using Definition = ElementwiseDefinition;
    using Options = CallOptions;
    using Call = ElementwiseCall;
    using Compiled = NativeFunction;

    static Call prepare(const Definition& k, std::span<const Argument> args, const Options& options,
                        std::optional<int> device) {
        return prepare_elementwise(k, args, options, device);
    }
    // The inputs read element by element (not raw, not written) are separated from the outputs
    // and the _non_const inputs.
    static std::optional<std::vector<Argument>> separate_inputs(const Definition& k,
                                                                std::span<const Argument> args,
                                                                const Options& /*options*/,
                                                                StreamView stream) {
        const auto reads = [&](std::size_t i) {
            return i < k.in.size() && !k.in[i].raw && !k.in[i].non_const;
        };
        const auto writes = [&](std::size_t i) { return i >= k.in.size() || k.in[i].non_const; };
        return detail::separate_inputs(args, {}, reads, writes, true, stream);
    }
    static void sign(CallSignature& signature, const Options& options) {
        signature.add(options.size.value_or(-1));
    }
    static std::span<const ndarray> passed_outputs(const Options& /*options*/) { return {}; }
    static void allocate_outputs(const Definition& k, Call& call, StreamView stream) {
        allocate_elementwise_outputs(k, call, stream);
    }
    static RecordedCall describe(const Definition& k, const Call& call) {
        RecordedCall recorded;
        recorded.kernel = k.name;
        recorded.inputs = k.in.size();
        for (const OperandVariant& op : call.variant.operands) {
            recorded.operand_dtypes.push_back(op.dtype);
        }
        recorded.output_shape = call.shape;
        return recorded;
    }
    static bool launches_nothing(const Call& call) { return call.values.size == 0; }
    static std::string variant_key(const Call& call) { return detail::variant_key(call.variant); }
    static std::string source(const Definition& k, const Call& call) {
        return elementwise_source(k, call.variant);
    }
    static Compiled compile(const Definition& k, const Call& call, int device) {
        const std::string code = source(k, call);
        return module_function(device, {code, k.name, k.options.options, {}}, k.name);
    }
    static void launch(const Definition& k, Call& call, Compiled function,
                       KernelLauncher& launcher) {
        const ElementwiseLaunch plan =
            dialect_of(call.variant)
                .elementwise.launch(k, call.variant, call.values, launcher.multiprocessors());
        call.values.row_length = plan.row_length;
        call.values.tile_columns = plan.tile_columns;
        launcher.launch(function, {plan.grid, 1, 1}, {plan.block, 1, 1}, plan.shared_bytes,
                        elementwise_arguments(call.variant, call.values));
    }
    static std::vector<ndarray> outputs(const Definition& k, Call&& call) {
        const auto first_output = static_cast<std::ptrdiff_t>(k.in.size());
        return {std::make_move_iterator(call.arrays.begin() + first_output),
                std::make_move_iterator(call.arrays.end())};
    }
};

}  // namespace kiln::detail

namespace kiln {

ElementwiseKernel::ElementwiseKernel(const std::string& in_params, const std::string& out_params,
                                     std::string operation, std::string name,
                                     ElementwiseOptions options) {
    detail::DefinitionKey key;
    key.add(in_params).add(out_params).add(operation).add(name);
    key.add_flag(options.reduce_dims).add(options.preamble).add(options.loop_prep);
    key.add(options.after_loop).add(options.options).add_flag(options.no_return);
    key.add_flag(options.return_tuple);
    state_ = detail::GeneratedKernel<detail::Elementwise>::shared(key, [&] {
        return detail::ElementwiseDefinition(in_params, out_params, std::move(operation),
                                             std::move(name), std::move(options));
    });
}

const std::string& ElementwiseKernel::name() const noexcept {
    return state_->definition().name;
}

ndarray ElementwiseKernel::operator()(std::initializer_list<Argument> args,
                                      const CallOptions& options) const {
    const detail::ElementwiseDefinition& k = state_->definition();
    // Checked before any device work, so that the mistake shows without a device.
    if (!k.options.no_return && k.options.return_tuple) {
        throw TypeError(detail::elementwise_prefix(k) +
                        "operator() returns one array but the kernel has return_tuple set; "
                        "call outputs()");
    }
    if (!k.options.no_return && k.out.size() > 1) {
        throw TypeError(detail::elementwise_prefix(k) +
                        "operator() returns one array but the kernel has " +
                        std::to_string(k.out.size()) + " outputs; call outputs()");
    }
    auto results = state_->call(std::span<const Argument>(args.begin(), args.size()), options);
    if (k.options.no_return) {
        return {};
    }
    return std::move(results.front());
}

std::vector<ndarray> ElementwiseKernel::outputs(std::span<const Argument> args,
                                                const CallOptions& options) const {
    auto results = state_->call(args, options);
    if (state_->definition().options.no_return) {
        return {};
    }
    return results;
}

std::string ElementwiseKernel::source(std::span<const Argument> args,
                                      const CallOptions& options) const {
    return state_->source(args, options);
}

}  // namespace kiln
