/// @file
/// CuPy's RawModule: CUDA/HIP C++ source (or a prebuilt cubin, PTX, fatbin or hsaco file) holding
/// several kernels and globals, compiled at run time for the current device on first use.
#pragma once

#include <kiln/raw_kernel.hpp>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

/// A module's global variable on the current device.
struct GlobalSymbol {
    /// The variable's device address.
    void* ptr = nullptr;
    /// Its size in bytes.
    std::size_t bytes = 0;
};

/// A module of CUDA/HIP source with any number of kernels and globals (cupy.RawModule), compiled on
/// first use on each device.
class RawModule {
public:
    /// `name_expressions` registers template instantiations or overloads (`"scale<float>"`) that
    /// get_function can then find by that expression.
    explicit RawModule(std::string code, std::vector<std::string> options = {},
                       std::vector<std::string> name_expressions = {});
    /// A prebuilt code object for the backend in use: cubin, PTX or fatbin on CUDA; hsaco on HIP.
    [[nodiscard]] static RawModule from_file(const std::filesystem::path& path);

    /// A kernel by name or registered name expression. Throws Error for a missing function or an
    /// expression that was not registered.
    [[nodiscard]] RawKernel get_function(std::string_view name) const;
    /// The address and size of global variable `name` on the current device; Error when the
    /// module has no such global.
    [[nodiscard]] GlobalSymbol get_global(std::string_view name) const;

    /// Compile-only: the code object for `target` ("sm_90", "gfx90a"), with no device needed.
    [[nodiscard]] std::vector<char> compile(const std::string& target) const;

private:
    explicit RawModule(std::shared_ptr<detail::ModuleState> state);
    std::shared_ptr<detail::ModuleState> state_;
};

}  // namespace kiln
