#include "compiler.hpp"

#include "../../core/env.hpp"
#include "../../core/error_message.hpp"
#include "../../core/log.hpp"
#include "cpu.hpp"
#include "cuda_source.hpp"
#include "debug_files.hpp"
#include "kernel_abi.hpp"
#include "prelude_cache.hpp"
#include "process.hpp"
#include "scratch_directory.hpp"
#include "system_error.hpp"

#include <kiln/error.hpp>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string_view>

namespace kiln::detail::host {

namespace {

namespace fs = std::filesystem;

// The options every kernel is built with. -O3 vectorises loops that -O2 leaves scalar where
// operands may alias; no errno from math functions, as on a GPU, lets sqrt vectorise too. Without
// semantic interposition a CUDA-dialect kernel, an exported function, inlines into the loop over
// its block's threads.
constexpr std::array<std::string_view, 8> common_options = {"-std=c++17",
                                                            "-O3",
                                                            "-march=native",
                                                            "-fPIC",
                                                            "-shared",
                                                            "-fno-math-errno",
                                                            "-fno-semantic-interposition",
                                                            "-pipe"};

// GCC 12's straight-line (SLP) vectorizer drops the rounding of (double)(float)x: kiln's
// complex<double> + complex<float>(y) kept y's double bits (tests/device/test_complex.cpp, op
// 28). Loops still vectorise.
constexpr std::string_view gcc_workaround = "-fno-tree-slp-vectorize";

// GCC makes a template's static data (a kernel's __shared__ array in a template kernel) one
// object per process across every module loaded, and such modules never unload: each module gets
// its own.
constexpr std::string_view gcc_no_unique = "-fno-gnu-unique";

#if defined(__x86_64__) && defined(__GLIBC__)
// Whether the glibc this process runs on is version major.minor or later.
bool glibc_at_least(unsigned long major, unsigned long minor) {
    // "2.36", or "2.36.9000" on a development build.
    const char* const version = gnu_get_libc_version();
    char* rest = nullptr;
    const unsigned long found_major = std::strtoul(version, &rest, 10);
    const unsigned long found_minor = *rest == '.' ? std::strtoul(rest + 1, nullptr, 10) : 0;
    return found_major > major || (found_major == major && found_minor >= minor);
}
#endif

#if defined(__x86_64__)
// A CUDA-dialect kernel's thread_local state (threadIdx, __shared__ arrays) is reached through
// TLS descriptors rather than __tls_get_addr where they are safe (below): faster, and not seen by
// AddressSanitizer's leak check, which intercepts __tls_get_addr.
constexpr std::string_view x86_tls_descriptors = "-mtls-dialect=gnu2";

// GCC keeps values in vector registers across a TLS descriptor's call, which must preserve
// them; before glibc 2.40 its slow path (a thread's first use of a module's thread_local state
// once the static TLS surplus is spent, after a dozen modules) clobbered them, and kernels crashed.
bool tls_descriptors_preserve_registers() {
#if defined(__GLIBC__)
    return glibc_at_least(2, 40);
#else
    return false;
#endif
}
#endif

#if defined(__x86_64__) && defined(__GLIBC__)
// glibc 2.35 and later have every function the prelude declares for libmvec
// (KILN_HOST_VECTOR_MATH), whose library comes last on the command line, after the source that
// calls it.
bool has_vector_math() {
    return glibc_at_least(2, 35);
}
constexpr std::string_view vector_math_macro = "-DKILN_HOST_VECTOR_MATH";
constexpr std::string_view vector_math_library = "-lmvec";
#endif

// Whether libkiln itself runs under AddressSanitizer (the asan preset): its kernels then do too,
// so that a kernel's out-of-bounds access is reported as the library's would be.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool under_address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool under_address_sanitizer = true;
#else
constexpr bool under_address_sanitizer = false;
#endif
#else
constexpr bool under_address_sanitizer = false;
#endif

constexpr std::array<std::string_view, 2> address_sanitizer_options = {"-fsanitize=address",
                                                                       "-fno-omit-frame-pointer"};

// The options of every compile by `compiler`.
std::vector<std::string> base_options(const HostCompiler& compiler) {
    std::vector<std::string> options(common_options.begin(), common_options.end());
    if (compiler.version.find("clang") == std::string::npos) {
        options.emplace_back(gcc_workaround);
        options.emplace_back(gcc_no_unique);
#if defined(__x86_64__)
        if (tls_descriptors_preserve_registers()) {
            options.emplace_back(x86_tls_descriptors);
        }
#endif
#if defined(__x86_64__) && defined(__GLIBC__)
        if (has_vector_math()) {
            options.emplace_back(vector_math_macro);
        }
#endif
    }
    if (under_address_sanitizer) {
        options.insert(options.end(), address_sanitizer_options.begin(),
                       address_sanitizer_options.end());
    }
    return options;
}

std::vector<char> read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string trimmed(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
        text.pop_back();
    }
    return text;
}

HostCompiler find_compiler() {
    HostCompiler compiler;
    const auto chosen = env::get("KILN_HOST_CXX");
    if (chosen) {
        compiler.path = find_program(*chosen);
        if (compiler.path.empty()) {
            compiler.reason = "no C++ compiler: KILN_HOST_CXX='" + *chosen +
                              "' is not an executable file (a path, or a name looked up in PATH)";
            return compiler;
        }
    } else {
        compiler.path = find_program(KILN_HOST_CXX_DEFAULT);
        if (compiler.path.empty()) {
            compiler.path = find_program("c++");
        }
        if (compiler.path.empty()) {
            compiler.reason =
                std::string("no C++ compiler: KILN_HOST_CXX is not set, and neither ") +
                KILN_HOST_CXX_DEFAULT +
                " (the compiler kiln was built with) nor c++ on PATH is an "
                "executable; set KILN_HOST_CXX to one";
            return compiler;
        }
    }
    try {
        const ScratchDirectory scratch;
        const ProcessResult result = run_process({compiler.path, "--version"}, scratch.path());
        compiler.version = result.output.substr(0, result.output.find('\n'));
        if (result.exit_code != 0 || compiler.version.empty()) {
            compiler.reason = "no C++ compiler: '" + compiler.path +
                              " --version' failed: " + trimmed(result.output);
        }
    } catch (const Error& e) {
        compiler.reason = "no C++ compiler: " + std::string(without_kiln_prefix(e.what()));
    } catch (const std::filesystem::filesystem_error& e) {
        compiler.reason = std::string(
                              "no scratch directory for the C++ compiler (is TMPDIR "
                              "a writable directory?): ") +
                          e.what();
    }
    if (!compiler.reason.empty()) {
        compiler.path.clear();
    }
    return compiler;
}

bool starts_with_any(std::string_view option, std::initializer_list<std::string_view> prefixes) {
    return std::ranges::any_of(prefixes,
                               [&](std::string_view prefix) { return option.starts_with(prefix); });
}

}  // namespace

const HostCompiler& host_compiler() {
    static const HostCompiler compiler = [] {
        HostCompiler found = find_compiler();
        if (found.path.empty()) {
            log::info("library: {}", found.reason);
        } else {
            log::info("library: C++ compiler {} ({})", found.path, found.version);
        }
        return found;
    }();
    return compiler;
}

const std::string& host_compiler_identity() {
    static const std::string identity = [] {
        std::string text = host_compiler().version + "; cpu " + cpu_features_digest() + ";";
        for (const auto& option : base_options(host_compiler())) {
            text += " " + option;
        }
        return text;
    }();
    return identity;
}

std::vector<std::string> host_options(const std::vector<std::string>& options) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const std::string& option = options[i];
        // -I dir and -D name take their value as the next option too.
        if ((option == "-I" || option == "-D" || option == "-U" || option == "-include") &&
            i + 1 < options.size()) {
            out.push_back(option);
            out.push_back(options[++i]);
        } else if (starts_with_any(option, {"-I", "-D", "-U", "-O", "-g", "-ffp-contract="}) ||
                   (option.starts_with("-std=") && option.find("++2") != std::string::npos)) {
            out.push_back(option);
        }
    }
    return out;
}

CompiledBinary compile_shared_object(const CompileRequest& request) {
    const HostCompiler& compiler = host_compiler();
    if (compiler.path.empty()) {
        throw Error("kiln: cannot compile kernel '" + std::string(request.kernel) +
                    "' for the host: " + compiler.reason);
    }
    std::vector<std::string> options = host_options(request.options);
    // A build for a debugger keeps its directory: the debug information names the source there.
    const bool for_debugger = builds_for_debugger(options);
    ScratchDirectory scratch(for_debugger ? debug_directory() : fs::temp_directory_path());
    if (for_debugger) {
        scratch.keep();
    }
    const std::vector<std::string> base = base_options(compiler);
    // Held until the compile is done: the cache does not evict a prelude in use.
    const std::optional<TreeLease> prelude = prelude_directory(compiler, base, request.headers);
    std::optional<fs::path> include;
    if (prelude) {
        include = prelude->path();
    } else {
        include = scratch.path() / "include";
        write_prelude(*include, request.headers);
    }
    const fs::path source = scratch.path() / (std::string(request.kernel) + ".cpp");
    // A CUDA-dialect source is compiled as it is, followed by the exports of its kernels.
    std::vector<std::string> lowered;
    if (request.cuda_dialect) {
        write_file(source,
                   std::string(request.source) +
                       cuda_source_epilogue(scan_cuda_source(request.source),
                                            request.name_expressions, shared_memory_per_block));
        for (std::size_t i = 0; i < request.name_expressions.size(); ++i) {
            lowered.push_back(expression_symbol(i));
        }
    } else {
        write_file(source, request.source);
        lowered = request.name_expressions;
    }
    const fs::path library = scratch.path() / (std::string(request.kernel) + ".so");

    std::vector<std::string> argv{compiler.path};
    argv.insert(argv.end(), base.begin(), base.end());
    for (auto& option : options) {
        argv.push_back(std::move(option));
    }
    argv.insert(argv.end(), {"-I", include->string(), "-include",
                             request.cuda_dialect ? cuda_prelude_header : prelude_header, "-o",
                             library.string(), source.string()});
#if defined(__x86_64__) && defined(__GLIBC__)
    if (std::find(base.begin(), base.end(), vector_math_macro) != base.end()) {
        argv.emplace_back(vector_math_library);
    }
#endif
    const ProcessResult result = run_process(argv, scratch.path());
    if (result.exit_code != 0) {
        throw CompileError(std::string(request.kernel), trimmed(result.output), argv,
                           std::string(request.source));
    }
    CompiledBinary binary{read_bytes(library), request.target, trimmed(result.output), {}};
    if (binary.image.empty()) {
        throw BackendError(compiler.path, 0, "the compiler wrote no shared object");
    }
    for (std::size_t i = 0; i < lowered.size(); ++i) {
        binary.lowered_names.emplace_back(request.name_expressions[i], lowered[i]);
    }
    return binary;
}

}  // namespace kiln::detail::host
