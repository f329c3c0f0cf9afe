// The call path of every kernel class whose source kiln generates (ElementwiseKernel,
// ReductionKernel and the fused kernels to come), written once: replay a call of a recorded
// layout; else bind and check the arguments (prepare), allocate the missing outputs on the call's
// stream, find or compile the variant, launch, and record the call. A class supplies only what
// differs, as the static members KernelClass names.
#pragma once

#include "../backend.hpp"
#include "../call_context.hpp"
#include "call_memo.hpp"
#include "kernel_launcher.hpp"
#include "recorded_call.hpp"
#include "shared_definitions.hpp"
#include "variant_cache.hpp"

#include <kiln/argument.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream.hpp>

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kiln::detail {

// What a generated-kernel class tells the shared path. Call is one call resolved without
// touching device memory (types, shapes, layout, variant); Compiled is a variant's functions.
template <class C>
concept KernelClass = requires(const typename C::Definition& definition,
                               std::span<const Argument> args, const typename C::Options& options,
                               typename C::Call& call, const typename C::Compiled& compiled,
                               CallSignature& signature, KernelLauncher& launcher,
                               StreamView stream) {
    // Throws, naming the kernel and the argument, for a call that does not fit the definition
    // or whose arrays `device` (none: only the source is wanted) cannot reach.
    {
        C::prepare(definition, args, options, std::optional<int>())
        } -> std::same_as<typename C::Call>;
    // The arguments with copies, made on `stream`, of the inputs that overlap what the call
    // writes (input_separation.hpp); nothing when none does.
    {
        C::separate_inputs(definition, args, options, stream)
        } -> std::same_as<std::optional<std::vector<Argument>>>;
    // Adds the call options that decide the launches to the arguments' signature.
    C::sign(signature, options);
    // Outputs passed apart from the arguments (ReductionKernel's out=), for a replay.
    { C::passed_outputs(options) } -> std::convertible_to<std::span<const ndarray>>;
    C::allocate_outputs(definition, call, stream);
    // What a replay needs besides the launches: dtypes, the shape of allocated outputs.
    { C::describe(definition, call) } -> std::same_as<RecordedCall>;
    { C::launches_nothing(call) } -> std::same_as<bool>;
    { C::variant_key(call) } -> std::same_as<std::string>;
    { C::source(definition, call) } -> std::same_as<std::string>;
    { C::compile(definition, call, 0) } -> std::same_as<typename C::Compiled>;
    C::launch(definition, call, compiled, launcher);
    { C::outputs(definition, std::move(call)) } -> std::same_as<std::vector<ndarray>>;
};

// One definition's state, shared by every kernel object built from it (shared_definitions.hpp).
template <class C>
class GeneratedKernel {
    static_assert(KernelClass<C>);

public:
    explicit GeneratedKernel(typename C::Definition definition)
        : definition_(std::move(definition)) {}

    // The state of the definition `key` spells, defined by `define` the first time.
    template <class Define>
    [[nodiscard]] static std::shared_ptr<GeneratedKernel> shared(const DefinitionKey& key,
                                                                 Define&& define) {
        // Never destroyed: kernel objects may outlive static destruction.
        static auto* states = new SharedDefinitions<GeneratedKernel>();
        return states->get(key, [&] { return std::make_shared<GeneratedKernel>(define()); });
    }

    [[nodiscard]] const typename C::Definition& definition() const noexcept { return definition_; }

    // The source of the variant these arguments select; needs no device unless an argument is
    // an array.
    [[nodiscard]] std::string source(std::span<const Argument> args,
                                     const typename C::Options& options) const {
        return C::source(definition_, C::prepare(definition_, args, options, std::nullopt));
    }

    // Runs a call on options.stream, else on the current stream of the first array's device;
    // returns its outputs.
    std::vector<ndarray> call(std::span<const Argument> given, const typename C::Options& options) {
        const StreamView stream =
            call_context(definition_.name, options.stream,
                         first_array_device(given, C::passed_outputs(options)));
        const int device = stream.device();
        const std::optional<std::vector<Argument>> separated =
            C::separate_inputs(definition_, given, options, stream);
        const std::span<const Argument> args = separated ? *separated : given;
        CallSignature options_signature;
        C::sign(options_signature, options);
        using Memo = CallMemo<std::shared_ptr<const RecordedCall>>;
        Memo* const memo = this_thread_memo<std::shared_ptr<const RecordedCall>>();
        if (const typename Memo::Held remembered =
                memo != nullptr ? memo->find(serial_, device, args, options_signature)
                                : typename Memo::Held()) {
            if (auto outputs = replay(**remembered, args, C::passed_outputs(options), stream)) {
                return std::move(*outputs);
            }
        }
        CallSignature signature(device, args);
        signature.add(options_signature);
        // A call that reaches another device's memory is checked again every time (prepare).
        if (const auto found = calls_.find(signature);
            found && all_on_device(args, C::passed_outputs(options), device)) {
            if (auto outputs = replay(*found, args, C::passed_outputs(options), stream)) {
                if (memo != nullptr) {
                    memo->remember(serial_, device, args, options_signature, found);
                }
                return std::move(*outputs);
            }
        }
        typename C::Call call = C::prepare(definition_, args, options, device);
        CrossDeviceOrder order(stream);
        for (const int other : other_devices(args, C::passed_outputs(options), device)) {
            order.after(other);
        }
        C::allocate_outputs(definition_, call, stream);
        auto recorded = std::make_shared<RecordedCall>(C::describe(definition_, call));
        recorded->signature = signature;
        recorded->share_output_geometries(args.size());
        if (!C::launches_nothing(call)) {
            const typename C::Compiled compiled = variants_.get(device, C::variant_key(call), [&] {
                return C::compile(definition_, call, device);
            });
            KernelLauncher launcher(*recorded, stream);
            C::launch(definition_, call, compiled, launcher);
        }
        order.done();
        calls_.add(std::move(recorded));
        return C::outputs(definition_, std::move(call));
    }

private:
    typename C::Definition definition_;
    std::uint64_t serial_ = new_call_owner_serial();
    VariantCache<typename C::Compiled> variants_;
    CallRecords calls_;
};

}  // namespace kiln::detail
