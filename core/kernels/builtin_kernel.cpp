#include "builtin_kernel.hpp"

#include "../compile/module_cache.hpp"
#include "../profiling.hpp"
#include "variant_cache.hpp"

#include <kiln/device.hpp>

namespace kiln::detail {

NativeFunction BuiltinKernel::function(StreamView stream, const std::string& variant,
                                       const SourceWriter& write) const {
    // Every built-in kernel's variants, by name and variant; never destroyed, as kernels may be
    // launched during static destruction.
    static auto& functions = *new VariantCache<NativeFunction>();
    return functions.get(stream.device(), std::string(name_) + ' ' + variant, [&] {
        const std::string source = write(active_kernel_dialect());
        return module_function(stream.device(), {source, name_, {}, {}}, name_);
    });
}

void BuiltinKernel::launch(NativeFunction function, const LaunchConfig& config, void** args) const {
    const ProfileRange range(name_);
    backend().launch(function, config, args);
}

void BuiltinKernel::launch_indices(NativeFunction function, std::int64_t count, StreamView stream,
                                   void** args) const {
    if (count == 0) {
        return;
    }
    const std::int64_t multiprocessors = Device(stream.device()).properties().multiprocessor_count;
    const IndexGrid grid = active_kernel_dialect().index_grid(count, multiprocessors);
    launch(function, {{grid.grid, 1, 1}, {grid.block, 1, 1}, 0, stream}, args);
}

}  // namespace kiln::detail
