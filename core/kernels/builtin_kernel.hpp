// kiln's own generated kernels (copies, fills, ranges, random numbers, scans, matmul's fallback)
// take the path of ElementwiseKernel and ReductionKernel below their argument binding: a variant's
// source is written once per device in the active dialect, compiled and loaded through the module
// cache, kept in a VariantCache, and launched in a profiler range named after the kernel under the
// dialect's grid and residency rules (kernel_dialect.hpp). What they skip is what only users'
// kernels need: binding arguments by name and type, and recording calls for replay.
#pragma once

#include "../backend.hpp"
#include "../codegen/kernel_dialect.hpp"

#include <kiln/stream_view.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace kiln::detail {

// Writes a variant's source in `dialect`.
using SourceWriter = std::function<std::string(const KernelDialect& dialect)>;

class BuiltinKernel {
public:
    // `name`: the kernel's symbol in every variant's source, and its profiler range.
    explicit constexpr BuiltinKernel(const char* name) noexcept : name_(name) {}

    // The variant `variant` ("float32 float64") on the device of `stream`, where it will be
    // launched; `write` runs only the first time there: a launch neither writes nor hashes source.
    [[nodiscard]] NativeFunction function(StreamView stream, const std::string& variant,
                                          const SourceWriter& write) const;

    // Launches `function` with `config` (its stream included).
    void launch(NativeFunction function, const LaunchConfig& config, void** args) const;

    // Launches `function`, a KILN_FOR_EACH_INDEX loop over `count` indices, on `stream` with the
    // dialect's index grid; nothing when `count` is 0.
    void launch_indices(NativeFunction function, std::int64_t count, StreamView stream,
                        void** args) const;

private:
    const char* name_;
};

}  // namespace kiln::detail
