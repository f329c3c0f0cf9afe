// kiln-bench: the seeds' custom kernels on the GPU against Kokkos CPU references, with the
// figures docs/perf.md reports (see --help, and bench/cupy_compare.py for CuPy's side). Without a
// GPU it runs them on the host backend (the CPU) and says so; with no backend that has a device
// it runs the Kokkos baselines, says why, and succeeds.
#include "check.hpp"
#include "context.hpp"
#include "legend.hpp"
#include "options.hpp"
#include "record.hpp"
#include "report.hpp"
#include "scaling.hpp"
#include "system_info.hpp"
#include "timing.hpp"
#include "workloads/workloads.hpp"

#include "core/backend.hpp"

#include <kiln/kiln.hpp>

#include <Kokkos_Core.hpp>

#include <stdlib.h>  // NOLINT(modernize-deprecated-headers): mkdtemp and setenv are POSIX
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <regex>

namespace kiln::bench {

namespace {

// Kokkos for the CPU references, for the whole run.
class KokkosSession {
public:
    KokkosSession() { Kokkos::initialize(); }
    ~KokkosSession() { Kokkos::finalize(); }
    KokkosSession(const KokkosSession&) = delete;
    KokkosSession& operator=(const KokkosSession&) = delete;
    KokkosSession(KokkosSession&&) = delete;
    KokkosSession& operator=(KokkosSession&&) = delete;
};

// A compile cache of the run's own (KILN_CACHE_DIR, inherited by the first-call child), so
// that cold compiles are cold, disk hits come from this run, and the user's cache is untouched.
class RunCacheDirectory {
public:
    RunCacheDirectory() {
        const std::filesystem::path base = std::filesystem::temp_directory_path();
        std::string pattern = (base / "kiln-bench-cache-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("kiln-bench: cannot make a cache directory under " +
                                     base.string());
        }
        path_ = pattern;
        ::setenv("KILN_CACHE_DIR", path_.c_str(), 1);  // NOLINT(concurrency-mt-unsafe): one thread
    }
    ~RunCacheDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    RunCacheDirectory(const RunCacheDirectory&) = delete;
    RunCacheDirectory& operator=(const RunCacheDirectory&) = delete;
    RunCacheDirectory(RunCacheDirectory&&) = delete;
    RunCacheDirectory& operator=(RunCacheDirectory&&) = delete;

private:
    std::filesystem::path path_;
};

std::vector<Workload> all_workloads() {
    std::vector<Workload> all;
    for (auto family : {elementwise_workloads, routine_workloads, fuse_workloads, lazy_workloads,
                        mse_workloads, reduction_workloads, raw_kernel_workloads, stream_workloads,
                        launch_overhead_workloads, pool_workloads, first_call_workloads,
                        compile_workloads, collective_workloads, multi_gpu_workloads}) {
        for (auto& workload : family()) {
            all.push_back(std::move(workload));
        }
    }
    return all;
}

std::vector<Workload> selected_workloads(const Options& options) {
    std::vector<Workload> selected;
    std::regex filter;
    try {
        filter = std::regex(options.filter);
    } catch (const std::regex_error& e) {
        throw std::invalid_argument("kiln-bench: --filter: '" + options.filter +
                                    "' is not a regular expression: " + e.what());
    }
    for (auto& workload : all_workloads()) {
        if (std::regex_search(workload.name, filter) ||
            std::regex_search(name_at_scale(workload.name, options.size_scale), filter)) {
            selected.push_back(std::move(workload));
        }
    }
    return selected;
}

void print_header(const Context& context, const SystemInfo& system,
                  const std::string& no_gpu_reason) {
    std::cout << "kiln-bench " << KILN_VERSION << ", " << system.date << '\n';
    if (context.host) {
        std::cout << "no GPU: kiln's kernels run on the host backend, on the CPU: " << system.device
                  << ", " << context.host_threads << " thread(s) (KILN_HOST_THREADS); "
                  << system.compiler << '\n';
        if (!no_gpu_reason.empty()) {
            std::cout << "(" << no_gpu_reason << ")\n";
        }
    } else if (context.gpu) {
        std::cout << "device: " << system.device << " (" << system.arch << "), driver "
                  << system.driver << "; " << system.backend << " backend, " << system.compiler
                  << '\n';
    } else {
        std::cout << "no GPU backend is available: " << no_gpu_reason << '\n'
                  << "running the Kokkos baselines"
                  << (context.compiler ? " and the compile-time figures" : "") << " only\n";
    }
    if (!system.libraries.empty()) {
        std::cout << "vendor libraries: " << system.libraries << '\n';
    }
    std::cout << "Kokkos reference: " << system.kokkos_space << ", " << system.kokkos_concurrency
              << " thread(s), Kokkos " << system.kokkos_version << std::endl;
    if (context.host && context.host_threads != system.kokkos_concurrency) {
        std::cout << "the speedup column compares kiln on " << context.host_threads
                  << " threads with Kokkos on " << system.kokkos_concurrency
                  << " (KILN_HOST_THREADS=" << system.kokkos_concurrency
                  << " compares equal numbers)" << std::endl;
    }
}

// --json PATH, or <build folder>/bench-results/<device>-<date>.json; a PATH that is a directory (or
// ends in '/') gets that file name inside it.
std::filesystem::path json_path(const Options& options, const SystemInfo& system) {
    const std::string file = (system.backend == "host" ? "host-" : "") +
                             file_name_part(system.device) + "-" + system.date + ".json";
    if (options.json_path.empty()) {
        return std::filesystem::path(KILN_BENCH_RESULTS_DIR) / file;
    }
    if (options.json_path.ends_with('/') || std::filesystem::is_directory(options.json_path)) {
        return std::filesystem::path(options.json_path) / file;
    }
    return options.json_path;
}

Json run_json(const Context& context, const std::string& no_gpu_reason) {
    return Json::object({{"gpu", context.gpu && !context.host},
                         {"host_backend", context.host},
                         {"host_threads", context.host_threads},
                         {"no_gpu_reason", no_gpu_reason},
                         {"filter", context.options.filter},
                         {"repeat", context.options.repeat},
                         {"warmup", context.options.warmup},
                         {"cpu_repeat", context.options.cpu_repeat},
                         {"size_scale", context.options.size_scale}});
}

// Why `workload` cannot run here; empty when it can.
std::string skip_reason(const Context& context, const Workload& workload) {
    if (workload.needs_gpu && !context.gpu) {
        return "needs a device";
    }
    if (workload.needs_compiler && !context.compiler) {
        return "no GPU backend's compiler";
    }
    if (workload.not_on_host != nullptr && context.host) {
        return workload.not_on_host;
    }
    if (context.gpu && context.devices < workload.devices) {
        return "needs " + std::to_string(workload.devices) + " devices, " +
               std::to_string(context.devices) + " visible" +
               (context.host ? " (KILN_HOST_DEVICES)" : "");
    }
    return {};
}

// The workloads, named for --size-scale, each with what keeps it from running here.
int list(const Context& context, const std::vector<Workload>& workloads) {
    for (const auto& workload : workloads) {
        const std::string skipped = skip_reason(context, workload);
        std::cout << std::left << std::setw(34)
                  << name_at_scale(workload.name, context.options.size_scale) << ' '
                  << workload.description
                  << (skipped.empty() ? "" : " [not run here: " + skipped + "]") << '\n';
    }
    return 0;
}

// A row for a workload that did not run, saying why.
Record skipped_record(const Workload& workload, const std::string& reason) {
    Record skipped;
    skipped.name = workload.name;
    skipped.description = workload.description;
    skipped.size = "-";
    skipped.check.status = "skip";
    skipped.skipped = reason;
    return skipped;
}

// Runs one workload, turning a failure into a failed row rather than ending the run.
std::vector<Record> run_workload(const Context& context, const Workload& workload) {
    try {
        if (workload.run_all) {
            return workload.run_all(context);
        }
        return {workload.run(context)};
    } catch (const std::exception& e) {
        Record failed;
        failed.name = workload.name;
        failed.description = workload.description;
        failed.size = "-";
        failed.check.status = "ERROR";
        failed.check.detail = e.what();
        return {failed};
    }
}

// The process's resident-memory high-water mark (Linux reports it in KiB).
std::optional<std::size_t> peak_resident_bytes() {
    rusage usage{};
    if (::getrusage(RUSAGE_SELF, &usage) != 0) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(usage.ru_maxrss) * 1024;
}

int run(const Options& options) {
    const RunCacheDirectory cache;
    const KokkosSession kokkos;
    Context context;
    context.options = options;
    context.self = std::filesystem::read_symlink("/proc/self/exe").string();
    // The host backend is active where no GPU backend sees a device, or where KILN_BACKEND
    // asks for it: its device is the CPU, which runs the workloads.
    context.host = !compiled_backends().empty() && active_backend() == BackendKind::host;
    context.compiler = !compiled_backends().empty() && !context.host &&
                       detail::libraries_loaded(detail::backend());
    context.devices = device_count();
    context.gpu = context.devices > 0;
    if (context.host && context.gpu) {
        context.host_threads = Device::current().properties().multiprocessor_count;
    }
    // Why no GPU runs the kernels ("" when one does), from kiln itself.
    const std::string no_gpu_reason = no_device_reason();

    const auto workloads = selected_workloads(options);
    if (options.list) {
        return list(context, workloads);
    }
    const SystemInfo system = system_info(context.gpu, context.host);
    print_header(context, system, no_gpu_reason);

    // Every kernel runs on the bench's own stream.
    std::unique_ptr<Stream> stream;
    std::unique_ptr<StreamGuard> on_stream;
    std::vector<Record> records;
    std::optional<double> copy_gbps;
    if (context.gpu) {
        stream = std::make_unique<Stream>(true);
        on_stream = std::make_unique<StreamGuard>(*stream);
        std::cerr << "[0/" << workloads.size() << "] copy" << std::endl;
        records.push_back(copy_bandwidth(context));
        copy_gbps = derive(records.back(), std::nullopt).gbps;
        std::cout << (context.host
                          ? "host memcpy (" + std::to_string(context.host_threads) + " thread(s))"
                          : std::string("device-to-device copy"))
                  << ": " << std::fixed << std::setprecision(1) << copy_gbps.value_or(0)
                  << " GB/s (1 GiB, median of " << records.back().samples << ")"
                  << std::defaultfloat << std::endl;
    }
    for (std::size_t i = 0; i < workloads.size(); ++i) {
        const Workload& workload = workloads[i];
        std::cerr << '[' << i + 1 << '/' << workloads.size() << "] " << workload.name;
        const std::string skipped = skip_reason(context, workload);
        if (!skipped.empty()) {
            std::cerr << ": skipped (" << skipped << ")\n";
            records.push_back(skipped_record(workload, skipped));
            continue;
        }
        std::cerr << std::flush;
        const double seconds = host_seconds([&] {
            for (auto& record : run_workload(context, workload)) {
                records.push_back(std::move(record));
            }
        });
        std::cerr << ": " << std::fixed << std::setprecision(1) << seconds << " s"
                  << std::defaultfloat << std::endl;
    }

    for (auto& record : records) {
        if (record.full_size_name.empty()) {  // rows named in bytes have named themselves
            record.full_size_name = record.name;
            record.name = name_at_scale(record.name, options.size_scale);
        }
    }
    std::cout << '\n'
              << table(records, copy_gbps, time_heading(context.host)) << '\n'
              << legend({.host = context.host,
                         .device = context.gpu,
                         .device_name = system.device,
                         .backend = system.backend,
                         .copy_gbps = copy_gbps,
                         .float_tolerance = tolerance_of<float>(),
                         .double_tolerance = tolerance_of<double>(),
                         .peak_resident_bytes = peak_resident_bytes()});
    const std::filesystem::path path = json_path(options, system);
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path());
    }
    std::ofstream(path) << dump(
        results_json(system, run_json(context, no_gpu_reason), records, copy_gbps));
    std::cout << "\nresults: " << path.string() << '\n';

    int failures = 0;
    for (const auto& record : records) {
        failures += record.check.status == "FAIL" || record.check.status == "ERROR" ? 1 : 0;
    }
    if (failures > 0) {
        std::cout << failures << " workload(s) failed their check or did not run\n";
    }
    return failures > 0 ? 1 : 0;
}

}  // namespace

}  // namespace kiln::bench

int main(int argc, char** argv) {
    using namespace kiln::bench;
    try {
        const Options options =
            parse_options(std::span<char* const>(argv + 1, static_cast<std::size_t>(argc - 1)));
        if (options.help) {
            std::cout << usage();
            return 0;
        }
        if (options.child_class) {
            return first_call_child(*options.child_class, options.child_nonces);
        }
        return run(options);
    } catch (const std::exception& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
}
