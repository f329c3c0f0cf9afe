/// @file
/// Kernels written in the user's own C++ source, typed by their declared signature: what
/// `@cupyx.jit.rawkernel` gives a Python user. The body is device C++ (CUDA/HIP), captured as text
/// by the macro, compiled at run time by NVRTC or HIPRTC and launched through RawKernel:
///
///     KILN_JIT_KERNEL(scale, (float* x, float a, long long n), {
///         long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
///         if (i < n) x[i] *= a;
///     });
///     scale(kiln::Dim3{blocks}, kiln::Dim3{256}, x, 2.0F, x.size());   // x: a float32 ndarray
///
/// The launcher's parameters come from the signature, so a wrong count or an inconvertible type
/// does not compile. A pointer parameter takes a pointer that converts to it, or an ndarray whose
/// dtype is the pointee's (checked at each call: TypeError naming the kernel, the parameter and
/// both dtypes). ndarray is a handle (copies share memory), so a const ndarray binds to a
/// non-const pointer too, as it does for RawKernel and copyto. A scalar parameter takes a value
/// that converts without narrowing, or an integer of another width or signedness when its value
/// fits (TypeError otherwise). Parameter types are read by both compilers: use pointers to, and
/// values of, arithmetic types (bool, the integers, float, double).
///
/// What the text of a body can hold (README, "Kernels in your own source"): the body is
/// stringised with `#`, so the host preprocessor expands no macro in it and the device compiler
/// sees the names as written; host `#define`s are unknown there. It holds no directive (`#include`,
/// `#define`, `#if`): put those in JitConfig::preamble or the compile options. Its line breaks are
/// lost: errors in it are reported at the line of the macro's name in the user's file.
#pragma once

#include <kiln/dtype.hpp>
#include <kiln/kernel_attributes.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/raw_kernel.hpp>

#include <array>
#include <charconv>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kiln {

namespace detail {

// What a KILN_JIT_* macro captured: its pieces as the host preprocessor stringised them, and
// where the macro stands in the user's file.
struct JitSource {
    const char* name = nullptr;
    const char* template_parameters = nullptr;  // "(class T)" for a template
    const char* result = nullptr;               // a function's return type; none for a kernel
    const char* parameters = nullptr;           // "(const float* x, int n)"
    const char* body = nullptr;                 // "{ ... }", on one line
    const char* file = nullptr;                 // __FILE__ where the macro is used
    int line = 0;                               // the line of the macro's name
};

// Carries __LINE__ from the macro's name to its expansion (see KILN_JIT_KERNEL).
template <int Line>
struct JitLine {
    static constexpr int value = Line;
};

}  // namespace detail

/// A device function that JIT kernels call (KILN_JIT_FUNCTION): its definition as device code.
class JitFunction {
public:
    /// Made by KILN_JIT_FUNCTION from the captured source.
    explicit JitFunction(const detail::JitSource& source);
    /// The helper's name.
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    /// A `#line` directive naming the user's file, then the `__device__` definition.
    [[nodiscard]] const std::string& source() const noexcept { return source_; }

private:
    std::string name_;
    std::string source_;
};

/// How a JIT kernel is compiled (the *_WITH macros take one).
struct JitConfig {
    /// The helpers the body calls, in order: a helper that calls another comes after it.
    std::vector<JitFunction> uses;
    /// Compiler options, as RawKernel's ("-DN=4", "--use_fast_math").
    std::vector<std::string> options;
    /// Device code placed first: `#include`, `#define`, types and constants the body needs.
    std::string preamble;
};

namespace detail {

struct JitDefinition;

// A kernel of a JIT template, instantiated for some types: its definition and its RawKernel.
struct JitInstance {
    std::shared_ptr<const JitDefinition> definition;
    RawKernel kernel;
};

// What every typed JitKernel shares: the generated source, the RawKernel that compiles, caches
// and launches it, and the messages of a call's argument errors.
class JitKernelBase {
public:
    [[nodiscard]] const std::string& name() const noexcept;
    // The device source kiln generated and compiles (with the helpers and the preamble).
    [[nodiscard]] const std::string& source() const noexcept;
    [[nodiscard]] const std::vector<std::string>& options() const noexcept;
    [[nodiscard]] KernelAttributes attributes() const { return kernel_.attributes(); }
    // Opt in to more dynamic shared memory than the default 48 KiB (CUDA).
    void set_max_dynamic_shared_size_bytes(int bytes) const {
        kernel_.set_max_dynamic_shared_size_bytes(bytes);
    }
    // Compile-only: the code object for `target` ("sm_90", "gfx90a"), with no device needed.
    [[nodiscard]] std::vector<char> compile(const std::string& target) const;

protected:
    JitKernelBase(const JitSource& source, const JitConfig& config);
    explicit JitKernelBase(JitInstance instance);

    void launch(kiln::Dim3 grid, kiln::Dim3 block, std::span<const KernelArg> args,
                const LaunchOptions& options) const {
        kernel_(grid, block, args, options);
    }
    // TypeError: argument `index` (from 0) is an ndarray of `actual`, the parameter's pointee
    // is `expected`.
    [[noreturn]] void throw_wrong_dtype(std::size_t index, DType expected, DType actual) const;
    // TypeError: integer argument `index` (written as `value`) does not fit its parameter.
    [[noreturn]] void throw_out_of_range(std::size_t index, std::string_view value,
                                         DType parameter) const;

private:
    std::shared_ptr<const JitDefinition> definition_;
    RawKernel kernel_;
};

// One argument of a JIT kernel, converted to the parameter type P by the C++ compiler; what
// needs a value (the dtype of an ndarray, the range of an integer) is checked at the call.
template <class P>
class JitArgument {
    static_assert(has_dtype<P> && std::is_arithmetic_v<P>,
                  "kiln::JitKernel: a parameter is a pointer or a value of bool, an integer type, "
                  "float or double");

public:
    template <class U>
    requires std::is_arithmetic_v<U> && requires(U u) { P{u}; }
    JitArgument(U value)  // NOLINT(google-explicit-constructor)
        : value_(value) {}
    // An integer of another width or signedness: converts when its value fits.
    template <class U>
    requires std::is_integral_v<U> && std::is_integral_v<P> &&
        (!std::is_same_v<U, bool>)&&(!std::is_same_v<P, bool>)&&(!requires(U u) {
            P{u};
        })JitArgument(U value)  // NOLINT(google-explicit-constructor)
        : value_(static_cast<P>(value)), fits_(std::in_range<P>(value)) {
        if (!fits_) {
            const auto [end, ec] =
                std::to_chars(text_.data(), text_.data() + text_.size() - 1, value);
            *end = '\0';
        }
    }

    [[nodiscard]] P value() const noexcept { return value_; }
    [[nodiscard]] bool fits() const noexcept { return fits_; }
    // The value as written, when it does not fit.
    [[nodiscard]] const char* text() const noexcept { return text_.data(); }

private:
    P value_;
    bool fits_ = true;
    std::array<char, 24> text_{};
};

template <class T>
class JitArgument<T*> {
    static constexpr bool takes_arrays = has_dtype<std::remove_cv_t<T>> || std::is_void_v<T>;

public:
    JitArgument(T* pointer) : pointer_(pointer) {}  // NOLINT(google-explicit-constructor)
    // An ndarray binds where its dtype can be checked (or the pointer is void*).
    JitArgument(const ndarray& array)  // NOLINT(google-explicit-constructor)
        requires takes_arrays : array_(&array) {}

    [[nodiscard]] const ndarray* array() const noexcept { return array_; }
    [[nodiscard]] T* pointer() const noexcept { return pointer_; }

private:
    T* pointer_ = nullptr;
    const ndarray* array_ = nullptr;
};

// The function type of a JIT template's prototype (a generic lambda) for template arguments T.
template <class C, class R, class... A>
auto jit_function_type(R (C::*)(A...) const) -> R (*)(A...);
template <class Prototype, class... T>
struct JitSignature {
    using type =
        std::remove_pointer_t<decltype(jit_function_type(&Prototype::template operator()<T...>))>;
};

class JitTemplateState;

// What every JitKernelTemplate shares: the definition and the instantiations made so far.
class JitTemplateBase {
public:
    [[nodiscard]] const std::string& name() const noexcept;
    // The generated source; each instantiation compiles it with its name expression.
    [[nodiscard]] const std::string& source() const noexcept;

protected:
    JitTemplateBase(const JitSource& source, const JitConfig& config);
    // The kernel for template arguments of these dtypes, compiled on first use.
    [[nodiscard]] JitInstance instance(std::initializer_list<DType> types) const;

private:
    std::shared_ptr<JitTemplateState> state_;
};

}  // namespace detail

template <class Signature>
class JitKernel;

/// A kernel written with KILN_JIT_KERNEL: launched as kernel(grid, block, arguments...) with one
/// argument per declared parameter, then optionally LaunchOptions (shared_mem, stream,
/// cooperative). Compiled on first launch per device through kiln's compile cache (memory and
/// disk) and launched by RawKernel's path, with its checks of block size and shared memory.
/// From its base it also has name(), source() (the device source kiln generated, with the helpers
/// and the preamble), options(), attributes(), set_max_dynamic_shared_size_bytes(bytes) and
/// compile(target) (the code object for "sm_90" or "gfx90a", with no device needed).
template <class... P>
class JitKernel<void(P...)> : public detail::JitKernelBase {
public:
    /// Made by KILN_JIT_KERNEL from the captured source.
    explicit JitKernel(const detail::JitSource& source, const JitConfig& config = {})
        : JitKernelBase(source, config) {}
    /// Made by JitKernelTemplate::instantiate.
    explicit JitKernel(detail::JitInstance instance) : JitKernelBase(std::move(instance)) {}

    /// Launches `grid` blocks of `block` threads with one argument per declared parameter (checked
    /// as the class says).
    void operator()(Dim3 grid, Dim3 block, detail::JitArgument<P>... args,
                    const LaunchOptions& options = {}) const {
        launch_bound(grid, block, options, std::index_sequence_for<P...>{}, args...);
    }

private:
    template <std::size_t... I>
    void launch_bound(Dim3 grid, Dim3 block, const LaunchOptions& options,
                      std::index_sequence<I...> /*indices*/,
                      const detail::JitArgument<P>&... args) const {
        const std::array<KernelArg, sizeof...(P)> bound{bind(args, I)...};
        launch(grid, block, bound, options);
    }

    template <class T>
    KernelArg bind(const detail::JitArgument<T*>& arg, std::size_t index) const {
        if (arg.array() == nullptr) {
            return KernelArg(arg.pointer());
        }
        if constexpr (has_dtype<std::remove_cv_t<T>>) {
            constexpr DType expected = dtype_of<std::remove_cv_t<T>>;
            if (arg.array()->dtype() != expected) {
                throw_wrong_dtype(index, expected, arg.array()->dtype());
            }
        }
        return KernelArg(*arg.array());
    }
    template <class T>
    KernelArg bind(const detail::JitArgument<T>& arg, std::size_t index) const {
        if (!arg.fits()) {
            throw_out_of_range(index, arg.text(), dtype_of<T>);
        }
        return KernelArg(arg.value());
    }
};

/// A kernel template written with KILN_JIT_KERNEL_TEMPLATE, instantiated for types through
/// RawModule's name expressions: `kernel.instantiate<float>()` is a JitKernel typed for float.
/// Template arguments are types with a dtype; each set compiles once (for the current device,
/// when instantiate is first called with it, as RawModule::get_function does) and is kept.
/// From its base it also has name() and source() (the generated source, which each instantiation
/// compiles with its name expression).
template <class Prototype>
class JitKernelTemplate : public detail::JitTemplateBase {
public:
    /// Made by KILN_JIT_KERNEL_TEMPLATE from the captured source.
    explicit JitKernelTemplate(const detail::JitSource& source, const JitConfig& config = {})
        : JitTemplateBase(source, config) {}

    /// The kernel for template arguments T: a `JitKernel<void(parameters with T)>`.
    template <class... T>
    requires(has_dtype<T>&&...) [[nodiscard]] auto instantiate() const {
        using Kernel = JitKernel<typename detail::JitSignature<Prototype, T...>::type>;
        return Kernel(instance(std::initializer_list<DType>{dtype_of<T>...}));
    }
};

}  // namespace kiln

// The macros. Each is an object-like macro whose expansion starts with __LINE__, so that the
// line recorded is the line of the macro's name with GCC and Clang alike (in a function-like
// macro's arguments GCC gives that line and Clang the line of the closing parenthesis). The body
// is taken as __VA_ARGS__, since commas in braces do not separate macro arguments.

/// KILN_JIT_KERNEL(name, (parameters), { body }); defines `name`, a
/// `kiln::JitKernel<void(parameters)>`, at namespace or block scope (a static object: constructed
/// once).
#define KILN_JIT_KERNEL KILN_DETAIL_JIT_AT(__LINE__) KILN_DETAIL_JIT_KERNEL
/// KILN_JIT_KERNEL_WITH(name, (parameters), config, { body }); the same with a kiln::JitConfig
/// (helpers, options, preamble); parenthesise the config if it holds a comma.
#define KILN_JIT_KERNEL_WITH KILN_DETAIL_JIT_AT(__LINE__) KILN_DETAIL_JIT_KERNEL_WITH
/// KILN_JIT_KERNEL_TEMPLATE(name, (class T, ...), (parameters), { body }); defines a
/// kiln::JitKernelTemplate, at namespace or block scope; `name.instantiate<float>()` launches.
#define KILN_JIT_KERNEL_TEMPLATE KILN_DETAIL_JIT_AT(__LINE__) KILN_DETAIL_JIT_KERNEL_TEMPLATE
/// KILN_JIT_KERNEL_TEMPLATE_WITH(name, (class T, ...), (parameters), config, { body }); the same
/// with a kiln::JitConfig.
#define KILN_JIT_KERNEL_TEMPLATE_WITH \
    KILN_DETAIL_JIT_AT(__LINE__) KILN_DETAIL_JIT_KERNEL_TEMPLATE_WITH
/// KILN_JIT_FUNCTION(result, name, (parameters), { body }); a device helper that kernels list in
/// JitConfig::uses. A result type holding a comma needs an alias in the preamble.
#define KILN_JIT_FUNCTION KILN_DETAIL_JIT_AT(__LINE__) KILN_DETAIL_JIT_FUNCTION

// clang-format off
#define KILN_DETAIL_JIT_AT(line) [[maybe_unused]] static constexpr ::kiln::detail::JitLine<line>
#define KILN_DETAIL_JIT_UNPAREN(...) __VA_ARGS__
#define KILN_DETAIL_JIT_SOURCE(name, template_parameters, result, parameters, body)           \
    ::kiln::detail::JitSource{#name, template_parameters, result, #parameters, body, __FILE__, \
                              kiln_jit_line_of_##name.value}
#define KILN_DETAIL_JIT_KERNEL(name, parameters, ...) \
    KILN_DETAIL_JIT_KERNEL_WITH(name, parameters, ::kiln::JitConfig{}, __VA_ARGS__)
#define KILN_DETAIL_JIT_KERNEL_WITH(name, parameters, config, ...)                    \
    kiln_jit_line_of_##name{};                                                        \
    static const ::kiln::JitKernel<void parameters> name{                             \
        KILN_DETAIL_JIT_SOURCE(name, nullptr, nullptr, parameters, #__VA_ARGS__), config}
#define KILN_DETAIL_JIT_KERNEL_TEMPLATE(name, template_parameters, parameters, ...)   \
    KILN_DETAIL_JIT_KERNEL_TEMPLATE_WITH(name, template_parameters, parameters,       \
                                         ::kiln::JitConfig{}, __VA_ARGS__)
// The prototype is a generic lambda with the kernel's parameters (a block scope may hold one,
// unlike a template); its parameters are unused by design. static_assert takes the user's ';'.
#define KILN_DETAIL_JIT_KERNEL_TEMPLATE_WITH(name, template_parameters, parameters, config, ...) \
    kiln_jit_line_of_##name{};                                                                 \
    _Pragma("GCC diagnostic push")                                                             \
    _Pragma("GCC diagnostic ignored \"-Wunused-parameter\"")                                   \
    static const ::kiln::JitKernelTemplate<                                                    \
        decltype([]<KILN_DETAIL_JIT_UNPAREN template_parameters> parameters {})>               \
        name{KILN_DETAIL_JIT_SOURCE(name, #template_parameters, nullptr, parameters,           \
                                    #__VA_ARGS__), config};                                    \
    _Pragma("GCC diagnostic pop")                                                              \
    static_assert(true)
#define KILN_DETAIL_JIT_FUNCTION(result, name, parameters, ...) \
    kiln_jit_line_of_##name{};                                  \
    static const ::kiln::JitFunction name{                      \
        KILN_DETAIL_JIT_SOURCE(name, nullptr, #result, parameters, #__VA_ARGS__)}
// clang-format on
