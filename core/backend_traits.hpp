// What a backend is, beyond its vendor API: its name, its kernel dialect's facts and how other
// formats name its devices. The one place that answers these per backend; the core asks here
// instead of testing for a backend. A new backend adds a row in backend_traits.cpp.
#pragma once

#include <kiln/backend.hpp>

#include <span>
#include <string_view>

namespace kiln::detail {

struct KernelDialect;

struct BackendTraits {
    std::string_view name;  // as KILN_BACKEND spells it: "cuda"
    // The C++ its generated kernels are written in (core/codegen/kernel_dialect.hpp): GPU kernels
    // for CUDA and HIP, one source for both, or host loops for the CPU.
    const KernelDialect& (*dialect)();
    bool runs_on_cpu;
    // DLPack's DLDeviceType for the backend's device memory (kDLCUDA, kDLROCM, kDLCPU).
    int dlpack_device_type;
    // Options that add line tables and device debug information (KILN_COMPILE_DEBUG).
    std::span<const std::string_view> debug_options;
    // Threads per warp (wavefront) on `target`.
    int (*warp_size)(std::string_view target);
    // A target to compile for without a device, as the loader probe does: one every supported
    // compiler version accepts.
    std::string_view offline_target;
    // Options that round every floating-point operation on its own (no a * b + c contracted into
    // one FMA), so that a kernel fusing several operations gives the bits of one kernel each.
    std::span<const std::string_view> separate_rounding;
};

[[nodiscard]] const BackendTraits& traits(BackendKind kind);

}  // namespace kiln::detail
