// kiln-bench: the seeds' custom kernels on the GPU against Kokkos CPU references, with the
// figures docs/perf.md reports (see --help, and bench/cupy_compare.py for CuPy's side). Without a
// GPU it runs the Kokkos baselines and the compile-time figures, says why nothing ran on a GPU,
// and succeeds.
#include "context.hpp"
#include "options.hpp"
#include "record.hpp"
#include "report.hpp"
#include "system_info.hpp"
#include "workloads/workloads.hpp"

#include <kiln/kiln.hpp>

#include <Kokkos_Core.hpp>

#include <stdlib.h>  // NOLINT(modernize-deprecated-headers): mkdtemp and setenv are POSIX

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
    for (auto family : {elementwise_workloads, mse_workloads, reduction_workloads,
                        raw_kernel_workloads, stream_workloads, launch_overhead_workloads,
                        pool_workloads, first_call_workloads, compile_workloads}) {
        for (auto& workload : family()) {
            all.push_back(std::move(workload));
        }
    }
    return all;
}

std::vector<Workload> selected_workloads(const Options& options) {
    std::vector<Workload> selected;
    const std::regex filter(options.filter);
    for (auto& workload : all_workloads()) {
        if (std::regex_search(workload.name, filter)) {
            selected.push_back(std::move(workload));
        }
    }
    return selected;
}

int list(const std::vector<Workload>& workloads) {
    for (const auto& workload : workloads) {
        std::printf("%-34s %s%s\n", workload.name.c_str(), workload.description.c_str(),
                    workload.needs_gpu        ? " [GPU only]"
                    : workload.needs_compiler ? " [needs a GPU backend's compiler]"
                                              : "");
    }
    return 0;
}

std::string default_json_path(const SystemInfo& system) {
    return "bench/results/" + file_name_part(system.device) + "-" + system.date + ".json";
}

Json run_json(const Context& context, const std::string& no_gpu_reason) {
    return Json::Object{{"gpu", context.gpu},
                        {"no_gpu_reason", no_gpu_reason},
                        {"filter", context.options.filter},
                        {"repeat", context.options.repeat},
                        {"warmup", context.options.warmup},
                        {"cpu_repeat", context.options.cpu_repeat},
                        {"size_scale", context.options.size_scale}};
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

int run(const Options& options) {
    const RunCacheDirectory cache;
    const KokkosSession kokkos;
    Context context;
    context.options = options;
    context.self = std::filesystem::read_symlink("/proc/self/exe").string();
    context.compiler = !compiled_backends().empty();
    context.gpu = device_count() > 0;
    const std::string no_gpu_reason = context.gpu ? "" : no_device_reason();

    const auto workloads = selected_workloads(options);
    if (options.list) {
        return list(workloads);
    }
    const SystemInfo system = system_info(context.gpu);
    std::printf("kiln-bench %s, %s\n", KILN_VERSION, system.date.c_str());
    if (context.gpu) {
        std::printf("device: %s (%s), driver %s; %s backend, %s\n", system.device.c_str(),
                    system.arch.c_str(), system.driver.c_str(), system.backend.c_str(),
                    system.compiler.c_str());
    } else {
        std::printf("no GPU backend is available: %s\n", no_gpu_reason.c_str());
        std::printf("running the Kokkos baselines%s only\n",
                    context.compiler ? " and the compile-time figures" : "");
    }
    std::printf("Kokkos reference: %s, %d thread(s), Kokkos %s\n", system.kokkos_space.c_str(),
                system.kokkos_concurrency, system.kokkos_version.c_str());
    std::fflush(stdout);

    // Every kernel runs on the bench's own stream.
    std::unique_ptr<Stream> stream;
    std::unique_ptr<StreamGuard> on_stream;
    std::vector<Record> records;
    std::optional<double> copy_gbps;
    if (context.gpu) {
        stream = std::make_unique<Stream>(true);
        on_stream = std::make_unique<StreamGuard>(*stream);
        std::fprintf(stderr, "[0/%zu] copy_d2d_f32_1GiB\n", workloads.size());
        records.push_back(copy_bandwidth(context));
        copy_gbps = derive(records.back(), std::nullopt).gbps;
        std::printf("device-to-device copy: %.1f GB/s (1 GiB, median of %d)\n",
                    copy_gbps.value_or(0), records.back().samples);
    }
    for (std::size_t i = 0; i < workloads.size(); ++i) {
        const Workload& workload = workloads[i];
        std::fprintf(stderr, "[%zu/%zu] %s", i + 1, workloads.size(), workload.name.c_str());
        if ((workload.needs_gpu && !context.gpu) ||
            (workload.needs_compiler && !context.compiler)) {
            std::fprintf(stderr, ": skipped (%s)\n",
                         workload.needs_gpu ? "needs a GPU" : "no GPU backend's compiler");
            continue;
        }
        std::fflush(stderr);
        const auto start = std::chrono::steady_clock::now();
        for (auto& record : run_workload(context, workload)) {
            records.push_back(std::move(record));
        }
        std::fprintf(
            stderr, ": %.1f s\n",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }

    std::printf("\n%s", table(records, copy_gbps).c_str());
    const std::filesystem::path path =
        options.json_path.empty() ? default_json_path(system) : options.json_path;
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path());
    }
    std::ofstream(path)
        << results_json(system, run_json(context, no_gpu_reason), records, copy_gbps).dump();
    std::printf("\nresults: %s\n", path.c_str());

    int failures = 0;
    for (const auto& record : records) {
        failures += record.check.status == "FAIL" || record.check.status == "ERROR" ? 1 : 0;
    }
    if (failures > 0) {
        std::printf("%d workload(s) failed their check or did not run\n", failures);
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
