/// @file
/// CuPy's RawKernel: a kernel written in CUDA/HIP C++, compiled at run time for the current
/// device on first use, and launched with an explicit grid and block.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/kernel_attributes.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/stream_view.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace kiln {

class RawKernel;

namespace detail {
class ModuleState;
struct KernelParameter;
struct JitDefinition;
// The RawKernel of a JIT kernel (jit_kernel.hpp), its module named after the JIT kernel.
[[nodiscard]] RawKernel jit_raw_kernel(const JitDefinition& definition);
}  // namespace detail

/// Grid or block extents (CuPy's tuples): Dim3{n} is (n, 1, 1).
struct Dim3 {
    /// Extent along x.
    unsigned x = 1;
    /// Extent along y.
    unsigned y = 1;
    /// Extent along z.
    unsigned z = 1;
};

/// One kernel argument: an array (its data pointer), a scalar kept in its exact C++ type, or a raw
/// device pointer. Where the kernel's signature is known, an integer scalar converts to an integer
/// parameter of another width or signedness when its value fits (TypeError otherwise); other
/// scalars must match exactly (a double stays a double: pass 1.5F for a float parameter).
class KernelArg {
public:
    /// What the argument holds.
    enum class Kind { array, scalar, pointer };

    /// An array, passed as its data pointer; the kernel's parameter is a pointer to its element
    /// type.
    KernelArg(const ndarray& array)  // NOLINT(google-explicit-constructor)
        : kind_(Kind::array), dtype_(array.dtype()), device_(array.device()) {
        store(array.data());
    }
    /// A scalar, passed by value in its exact type.
    template <class T>
    requires has_dtype<T> KernelArg(T value)  // NOLINT(google-explicit-constructor)
        : dtype_(dtype_of<T>) {
        store(value);
    }
    /// A raw device pointer, passed as is.
    template <class T>
    KernelArg(T* pointer)  // NOLINT(google-explicit-constructor)
        : kind_(Kind::pointer) {
        if constexpr (has_dtype<std::remove_cv_t<T>>) {
            dtype_ = dtype_of<std::remove_cv_t<T>>;
        }
        store(static_cast<const void*>(pointer));
    }

    /// What the argument holds.
    [[nodiscard]] Kind kind() const noexcept { return kind_; }
    /// The scalar's dtype, or the element dtype of an array or typed pointer.
    [[nodiscard]] std::optional<DType> dtype() const noexcept { return dtype_; }
    /// The array's device; none for scalars and pointers.
    [[nodiscard]] std::optional<int> device() const noexcept { return device_; }
    /// What the launch passes: a pointer to the value (launch APIs take non-const pointers).
    [[nodiscard]] void* address() const noexcept {
        return const_cast<std::byte*>(value_.data());  // NOLINT(*-const-cast): never written
    }

private:
    template <class T>
    void store(const T& value) {
        static_assert(sizeof(T) <= 16 && std::is_trivially_copyable_v<T>);
        std::memcpy(value_.data(), &value, sizeof(T));
    }

    alignas(16) std::array<std::byte, 16> value_{};
    Kind kind_ = Kind::scalar;
    std::optional<DType> dtype_;
    std::optional<int> device_;
};

/// How RawKernel launches (CuPy's shared_mem, stream, enable_cooperative_groups).
struct LaunchOptions {
    std::size_t shared_mem = 0;        ///< dynamic shared memory in bytes
    std::optional<StreamView> stream;  ///< default: the arrays' device's current stream
    /// All blocks resident at once (CUDA's cooperative launch); a 1-D grid is clamped to what
    /// fits, as CuPy does.
    bool cooperative = false;
};

/// A kernel from CUDA/HIP source (cupy.RawKernel), compiled on first use on each device through the
/// compile cache.
class RawKernel {
public:
    /// `code` holds `extern "C" __global__ void <name>(...)`. Compiled on first use per device.
    RawKernel(std::string code, std::string name, std::vector<std::string> options = {});
    ~RawKernel();
    /// Shares the compiled module.
    RawKernel(const RawKernel& other);
    /// Shares `other`'s compiled module.
    RawKernel& operator=(const RawKernel& other);
    /// Takes over `other`.
    RawKernel(RawKernel&& other) noexcept;
    /// Takes over `other`.
    RawKernel& operator=(RawKernel&& other) noexcept;

    /// Launches on the stream's device, else the first array argument's, else the current device;
    /// an array of another device is reached by peer access or refused (an Error naming it)
    /// before the launch. set_max_dynamic_shared_size_bytes and the carveout apply to the device
    /// current when they are called. When the kernel's signature can be read, arguments are
    /// checked against it: a wrong count or type, or an integer out of its parameter's range, is
    /// a TypeError, never garbage.
    void operator()(Dim3 grid, Dim3 block, std::initializer_list<KernelArg> args,
                    const LaunchOptions& options = {}) const;
    /// The same launch with the arguments in a span.
    void operator()(Dim3 grid, Dim3 block, std::span<const KernelArg> args,
                    const LaunchOptions& options = {}) const;

    /// The name the kernel was given (a name or a name expression).
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    /// The compiled kernel's attributes on the current device (registers, shared memory, the most
    /// threads per block).
    [[nodiscard]] KernelAttributes attributes() const;
    /// Opt in to more dynamic shared memory than the default 48 KiB (CUDA; AMD's limit is fixed).
    void set_max_dynamic_shared_size_bytes(int bytes) const;
    /// Asks for `percent` of the unified L1/shared memory as shared memory (CUDA's preferred
    /// carveout); a hint the driver may round.
    void set_preferred_shared_memory_carveout(int percent) const;

private:
    friend class RawModule;
    friend RawKernel detail::jit_raw_kernel(const detail::JitDefinition& definition);
    RawKernel(std::shared_ptr<detail::ModuleState> module, std::string name,
              std::string lookup_name);
    [[nodiscard]] void* function() const;

    std::shared_ptr<detail::ModuleState> module_;
    std::string name_;         // as the user named it (a name or a name expression)
    std::string lookup_name_;  // the symbol: the name, or the expression's lowered name
    std::string label_;        // "RawKernel '<name>'", built once: launches name it in errors
    std::shared_ptr<const std::optional<std::vector<detail::KernelParameter>>> signature_;
};

}  // namespace kiln
