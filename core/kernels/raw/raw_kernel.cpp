#include "../../backend.hpp"
#include "../../call_context.hpp"
#include "../../profiling.hpp"
#include "../param_spec.hpp"
#include "../shared_definitions.hpp"
#include "module_state.hpp"
#include "raw_arguments.hpp"
#include "signature.hpp"

#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/raw_kernel.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace kiln {

namespace {

std::string describe(Dim3 d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
           ")";
}

// Every array argument is on the device the kernel runs on, or one it can reach (CuPy checks no
// raw launch; a fault would poison the process, so kiln does).
void check_devices(const std::string& kernel, std::span<const KernelArg> args, int device) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].device() && !detail::reachable(device, *args[i].device())) {
            throw Error("kiln: RawKernel '" + kernel + "': argument " + std::to_string(i + 1) +
                        " is an array on device " + std::to_string(*args[i].device()) +
                        ", which device " + std::to_string(device) +
                        " (where the kernel runs) cannot access; move it there with to_device");
        }
    }
}

// The device of the first array argument, if any.
std::optional<int> first_array_argument_device(std::span<const KernelArg> args) {
    for (const KernelArg& arg : args) {
        if (arg.device()) {
            return arg.device();
        }
    }
    return std::nullopt;
}

// The grid and block against the kernel's limits; returns the threads per block.
unsigned long long check_launch_shape(const std::string& kernel, Dim3 grid, Dim3 block,
                                      std::size_t shared_mem, const KernelAttributes& attributes,
                                      int device) {
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0) {
        throw Error("kiln: RawKernel '" + kernel + "': grid " + describe(grid) + " and block " +
                    describe(block) + " must have no zero extent");
    }
    const unsigned long long threads = static_cast<unsigned long long>(block.x) * block.y * block.z;
    if (threads > static_cast<unsigned long long>(attributes.max_threads_per_block)) {
        throw Error("kiln: RawKernel '" + kernel + "': block " + describe(block) + " has " +
                    std::to_string(threads) + " threads; this kernel allows at most " +
                    std::to_string(attributes.max_threads_per_block) + " on device " +
                    std::to_string(device));
    }
    if (shared_mem > static_cast<std::size_t>(attributes.max_dynamic_shared_size_bytes)) {
        throw Error("kiln: RawKernel '" + kernel + "': shared_mem of " +
                    std::to_string(shared_mem) + " bytes exceeds the kernel's limit of " +
                    std::to_string(attributes.max_dynamic_shared_size_bytes) +
                    " bytes (raise it with set_max_dynamic_shared_size_bytes, up to the device's " +
                    std::to_string(Device(device).properties().shared_memory_per_block_optin) +
                    ")");
    }
    return threads;
}

}  // namespace

RawKernel::RawKernel(std::string code, std::string name, std::vector<std::string> options)
    : name_(std::move(name)), lookup_name_(name_), label_("RawKernel '" + name_ + "'") {
    if (!detail::is_identifier(name_)) {
        throw Error("kiln: RawKernel: '" + name_ +
                    "' is not a valid kernel name (expected a C identifier)");
    }
    // Objects of one definition share its parsed signature and its module state.
    struct Shared {
        std::shared_ptr<const std::optional<std::vector<detail::KernelParameter>>> signature;
        std::shared_ptr<detail::ModuleState> module;
    };
    // Never destroyed: kernel objects may outlive static destruction.
    static auto* shared = new detail::SharedDefinitions<Shared>();
    detail::DefinitionKey key;
    key.add(code).add(name_).add(options);
    const auto state = shared->get(key, [&] {
        return std::make_shared<Shared>(
            Shared{std::make_shared<const std::optional<std::vector<detail::KernelParameter>>>(
                       detail::kernel_signature(code, name_)),
                   std::make_shared<detail::ModuleState>(
                       detail::ModuleState::Source{std::move(code), std::move(options), {}},
                       "RawKernel '" + name_ + "'")});
    });
    signature_ = state->signature;
    module_ = state->module;
}

RawKernel::RawKernel(std::shared_ptr<detail::ModuleState> module, std::string name,
                     std::string lookup_name)
    : module_(std::move(module)),
      name_(std::move(name)),
      lookup_name_(std::move(lookup_name)),
      label_("RawKernel '" + name_ + "'") {
    const auto* source = module_->source();
    signature_ = std::make_shared<const std::optional<std::vector<detail::KernelParameter>>>(
        source != nullptr ? detail::kernel_signature(source->code, name_) : std::nullopt);
}

RawKernel::~RawKernel() = default;
RawKernel::RawKernel(const RawKernel&) = default;
RawKernel& RawKernel::operator=(const RawKernel&) = default;
RawKernel::RawKernel(RawKernel&&) noexcept = default;
RawKernel& RawKernel::operator=(RawKernel&&) noexcept = default;

void* RawKernel::function() const {
    return module_->function(detail::current_device(), lookup_name_).native;
}

void RawKernel::operator()(Dim3 grid, Dim3 block, std::initializer_list<KernelArg> args,
                           const LaunchOptions& options) const {
    (*this)(grid, block, std::span<const KernelArg>(args.begin(), args.size()), options);
}

void RawKernel::operator()(Dim3 grid, Dim3 block, std::span<const KernelArg> args,
                           const LaunchOptions& options) const {
    const std::string& kernel = name_;
    constexpr std::size_t max_arguments = 256;
    if (args.size() > max_arguments) {
        throw Error("kiln: RawKernel '" + kernel + "': more than 256 arguments");
    }
    // Left uninitialized: entries past the arguments are never read.
    std::array<void*, max_arguments> packed;  // NOLINT(cppcoreguidelines-pro-type-member-init)
    for (std::size_t i = 0; i < args.size(); ++i) {
        packed.at(i) = args[i].address();
    }
    // Integer scalars converted to their parameters' types, pointed to from `packed`. Left
    // uninitialized: only the entries written below are read, and launches stay cheap.
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init)
    std::array<detail::ConvertedScalar, max_arguments> converted;
    if (const auto& signature = *signature_) {
        if (args.size() != signature->size()) {
            throw TypeError("kiln: RawKernel '" + kernel + "': takes " +
                            std::to_string(signature->size()) + " arguments, got " +
                            std::to_string(args.size()));
        }
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (auto bytes = detail::bind_raw_argument(kernel, i, args[i], (*signature)[i])) {
                converted.at(i) = *bytes;
                packed.at(i) = converted.at(i).data();
            }
        }
    }
    auto& gpu = detail::backend();
    const StreamView stream =
        detail::call_context(label_, options.stream, first_array_argument_device(args));
    const int device = stream.device();
    check_devices(kernel, args, device);
    detail::CrossDeviceOrder order(stream);
    for (const KernelArg& arg : args) {
        if (arg.device()) {
            order.after(*arg.device());
        }
    }
    auto function = module_->function(device, lookup_name_);
    // Kernel objects with one source share the function, whose limit another object may have
    // raised since this one read it.
    if (options.shared_mem >
        static_cast<std::size_t>(function.attributes.max_dynamic_shared_size_bytes)) {
        module_->refresh_attributes(device, lookup_name_);
        function = module_->function(device, lookup_name_);
    }
    const unsigned long long threads =
        check_launch_shape(kernel, grid, block, options.shared_mem, function.attributes, device);

    detail::LaunchConfig config{
        {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, options.shared_mem, stream};
    const detail::ProfileRange range(kernel.c_str());
    if (options.cooperative) {
        const int per_multiprocessor = gpu.max_active_blocks_per_multiprocessor(
            device, function.native, static_cast<int>(threads), options.shared_mem);
        const auto resident = static_cast<unsigned>(
            per_multiprocessor * Device(device).properties().multiprocessor_count);
        if (grid.y == 1 && grid.z == 1) {
            config.grid.x = std::min(grid.x, std::max(resident, 1U));
        }
        gpu.launch_cooperative(function.native, config, packed.data());
    } else {
        gpu.launch(function.native, config, packed.data());
    }
    order.done();
}

KernelAttributes RawKernel::attributes() const {
    return module_->function(detail::current_device(), lookup_name_).attributes;
}

void RawKernel::set_max_dynamic_shared_size_bytes(int bytes) const {
    const int device = detail::current_device();
    detail::backend().set_function_attribute(
        device, module_->function(device, lookup_name_).native,
        detail::FunctionAttribute::max_dynamic_shared_size_bytes, bytes);
    module_->refresh_attributes(device, lookup_name_);
}

void RawKernel::set_preferred_shared_memory_carveout(int percent) const {
    const int device = detail::current_device();
    detail::backend().set_function_attribute(
        device, module_->function(device, lookup_name_).native,
        detail::FunctionAttribute::preferred_shared_memory_carveout, percent);
    module_->refresh_attributes(device, lookup_name_);
}

}  // namespace kiln
