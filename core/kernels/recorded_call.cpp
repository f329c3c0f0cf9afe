#include "recorded_call.hpp"

#include "reduction/last_block_counters.hpp"

#include "../array/array_memory.hpp"
#include "../layout.hpp"
#include "../profiling.hpp"

#include <kiln/error.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream.hpp>

#include <algorithm>

namespace kiln::detail {

namespace {

// The most operands a replayed call has; more take the full path every time.
constexpr std::size_t max_operands = 32;

}  // namespace

// NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init): words_ past size_ are never read
CallSignature::CallSignature(int device, std::span<const Argument> args) noexcept {
    add(device);
    add(static_cast<std::int64_t>(args.size()));
    for (const Argument& argument : args) {
        add(argument);
    }
}

void CallSignature::add(const Argument& argument) noexcept {
    add(argument_kind(argument));
    if (const auto* array = std::get_if<ndarray>(&argument)) {
        add(static_cast<std::int64_t>(array->shape().size()));
        for (const std::int64_t extent : array->shape()) {
            add(extent);
        }
        for (const std::int64_t stride : array->strides()) {
            add(stride);
        }
    }
}

bool RecordedCall::replayable() const noexcept {
    return signature.complete() && operand_dtypes.size() <= max_operands &&
           std::all_of(launches.begin(), launches.end(), [](const RecordedLaunch& launch) {
               return ReplayedArguments::fits(launch.arguments);
           });
}

void RecordedCall::share_output_geometries(std::size_t given) {
    output_geometries.assign(operand_dtypes.size(), nullptr);
    output_bytes.assign(operand_dtypes.size(), 0);
    for (std::size_t p = given; p < operand_dtypes.size(); ++p) {
        const std::size_t item = itemsize(operand_dtypes[p]);
        output_geometries[p] = c_contiguous_geometry(output_shape, item);
        output_bytes[p] = static_cast<std::size_t>(checked_size(output_shape, item)) * item;
    }
}

std::shared_ptr<const RecordedCall> CallRecords::find(const CallSignature& signature) const {
    if (!signature.complete()) {
        return nullptr;
    }
    const std::scoped_lock lock(mutex_);
    for (const auto& call : calls_) {
        if (call->signature == signature) {
            return call;
        }
    }
    return nullptr;
}

void CallRecords::add(std::shared_ptr<const RecordedCall> call) {
    if (!call->replayable()) {
        return;
    }
    const std::scoped_lock lock(mutex_);
    if (calls_.size() < capacity) {
        calls_.push_back(std::move(call));
        return;
    }
    calls_[next_] = std::move(call);
    next_ = (next_ + 1) % capacity;
}

std::optional<std::vector<ndarray>> replay(const RecordedCall& call, std::span<const Argument> args,
                                           std::span<const ndarray> out, StreamView stream) {
    const void* const counter = call.block_counter ? last_block_counter(stream) : nullptr;
    if (call.block_counter && counter == nullptr) {
        return std::nullopt;
    }
    const std::size_t count = call.operand_dtypes.size();
    std::vector<ndarray> results;
    results.reserve(count - call.inputs);
    // Each operand's bytes: a data pointer, or a scalar converted to the operand's dtype. Only
    // the first `count` entries are written and read, so the arrays are left uninitialized.
    std::array<const void*, max_operands> pointers;               // NOLINT(*-member-init)
    std::array<std::array<std::byte, 16>, max_operands> scalars;  // NOLINT(*-member-init)
    std::array<const void*, max_operands> sources;                // NOLINT(*-member-init)
    for (std::size_t p = 0; p < count; ++p) {
        const DType dtype = call.operand_dtypes[p];
        if (p < args.size()) {
            if (const auto* scalar = std::get_if<Scalar>(&args[p])) {
                scalars.at(p) = scalar->bytes_as(dtype);
                sources.at(p) = scalars.at(p).data();
                continue;
            }
            const auto& array = std::get<ndarray>(args[p]);
            if (p >= call.inputs) {
                results.push_back(array);
            }
            pointers.at(p) = array.data();
        } else {
            // Apart, not as one conditional: that would be a const prvalue, copied in. Made in
            // place: moving an array copies its geometry handle.
            if (out.empty()) {
                std::shared_ptr<void> memory =
                    allocate_array_memory(call.output_bytes.at(p), stream);
                // New memory: no deferred expression reads it, so data()'s check is skipped.
                pointers.at(p) = memory.get();
                results.emplace_back(std::move(memory), dtype, call.output_geometries.at(p), 0,
                                     stream.device());
            } else {
                results.push_back(out[p - call.inputs]);
                pointers.at(p) = results.back().data();
            }
        }
        sources.at(p) = &pointers.at(p);
    }
    std::optional<ndarray> scratch;
    if (call.scratch_bytes > 0) {
        scratch = empty_on({call.scratch_bytes}, uint8, stream);
    }
    const void* scratch_pointer = scratch ? scratch->data() : nullptr;
    const ProfileRange range(call.kernel.c_str());
    for (const RecordedLaunch& launch : call.launches) {
        ReplayedArguments arguments(launch.arguments, std::span(sources.data(), count),
                                    static_cast<const void*>(&scratch_pointer),
                                    static_cast<const void*>(&counter));
        backend().launch(launch.function, {launch.grid, launch.block, launch.shared_bytes, stream},
                         arguments.pointers());
    }
    return results;
}

}  // namespace kiln::detail
