// First call of a new kernel, per kernel class: cold (a source no cache has seen: the compiler
// runs), disk-cache hit (a new process finds the code object on disk) and memory-cache hit (a new
// kernel object whose source this process compiled already). Each figure is the host time from
// constructing the kernel object to its first call's return, on 1000 float32 elements. A routine
// has no kernel object to construct: its row times the first kiln::add of each dtype in a new
// process, from the disk cache.
#include "../child_process.hpp"
#include "../kernels.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/compile_cache.hpp>
#include <kiln/device.hpp>
#include <kiln/ufuncs.hpp>

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace kiln::bench {

namespace {

constexpr std::int64_t elements = 1000;
constexpr std::array class_names{"elementwise", "reduction", "raw"};
constexpr std::array class_titles{"ElementwiseKernel", "ReductionKernel", "RawKernel"};

std::size_t class_index(const std::string& name) {
    for (std::size_t i = 0; i < class_names.size(); ++i) {
        if (name == class_names.at(i)) {
            return i;
        }
    }
    throw std::invalid_argument("kiln-bench: --first-call-child: unknown kernel class '" + name +
                                "'");
}

// Constructs a kernel of class `kind` whose source holds `nonce`, and calls it once.
void first_call(std::size_t kind, const std::string& nonce, const ndarray& x, const ndarray& y) {
    const std::string comment = "// kiln-bench first call " + nonce + "\n";
    if (kind == 0) {
        (void)kernels::custom_add.make(comment)({x, y});
    } else if (kind == 1) {
        (void)kernels::sum.make(comment)({x});
    } else {
        const auto kernel = kernels::add_raw.make(comment);
        const ndarray z = empty_like(x);
        kernel(Dim3{(elements + 255) / 256}, Dim3{256}, {x, y, z, static_cast<int>(elements)});
    }
}

double timed_first_call(std::size_t kind, const std::string& nonce, const ndarray& x,
                        const ndarray& y) {
    const double seconds = host_seconds([&] { first_call(kind, nonce, x, y); });
    synchronize(current_stream());
    return seconds;
}

std::vector<std::string> fresh_nonces(std::size_t count) {
    const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
    std::vector<std::string> nonces;
    for (std::size_t i = 0; i < count; ++i) {
        nonces.push_back(std::to_string(::getpid()) + "-" + std::to_string(ticks) + "-" +
                         std::to_string(i));
    }
    return nonces;
}

std::vector<double> parse_seconds(const std::string& output, std::uint64_t& disk_hits) {
    std::istringstream lines(output);
    std::vector<double> seconds;
    std::string word;
    while (lines >> word) {
        if (word == "disk_hits") {
            lines >> disk_hits;
        } else {
            seconds.push_back(std::stod(word));
        }
    }
    return seconds;
}

Record level_record(std::size_t kind, const char* level, const char* description) {
    Record r = make_record(
        std::string("first_call_") + level + "_" + class_names.at(kind),
        std::string("first call of a new ") + class_titles.at(kind) + ", " + description,
        class_titles.at(kind), {elements}, "float32", "compile");
    r.kernel = kind == 0   ? kernels::custom_add.json()
               : kind == 1 ? kernels::sum.json()
                           : kernels::add_raw.json();
    return r;
}

void store_host(Record& r, const std::vector<double>& seconds) {
    std::vector<double> us;
    us.reserve(seconds.size());
    for (const double s : seconds) {
        us.push_back(s * 1e6);
    }
    r.host_us = median(us);
    r.samples = static_cast<int>(us.size());
}

// The three records of one class, measured together: the cold compiles leave the code objects on
// disk for the child process, and in memory for the memory-cache hits.
std::vector<Record> first_calls(const Context& context, std::size_t kind) {
    const auto cold_count = static_cast<std::size_t>(std::min(context.options.repeat, 10));
    const auto nonces = fresh_nonces(cold_count + 1);  // the first is a warm-up
    const ndarray x = ones({elements}, float32);
    const ndarray y = ones({elements}, float32);

    Record cold = level_record(kind, "cold", "compiled (no cache has its source)");
    (void)timed_first_call(kind, nonces[0], x, y);
    reset_compile_cache_statistics();
    std::vector<double> seconds;
    for (std::size_t i = 1; i < nonces.size(); ++i) {
        seconds.push_back(timed_first_call(kind, nonces[i], x, y));
    }
    store_host(cold, seconds);
    const auto compiled = compile_cache_statistics();
    cold.params = Json::object(
        {{"compiles", compiled.compiles}, {"compile_seconds", compiled.compile_seconds}});

    Record memory = level_record(kind, "memory", "memory-cache hit (a new object, same source)");
    reset_compile_cache_statistics();
    seconds.clear();
    for (int i = 0; i < context.options.repeat; ++i) {
        seconds.push_back(
            timed_first_call(kind, nonces[1 + static_cast<std::size_t>(i) % cold_count], x, y));
    }
    store_host(memory, seconds);
    memory.params = Json::object({{"compiles", compile_cache_statistics().compiles}});

    Record disk = level_record(kind, "disk", "disk-cache hit in a new process");
    if (!compile_cache_directory()) {
        disk.note = "the disk cache is off (KILN_CACHE_IN_MEMORY)";
    } else {
        std::string list;
        for (const auto& nonce : nonces) {
            list += (list.empty() ? "" : ",") + nonce;
        }
        std::uint64_t disk_hits = 0;
        store_host(disk, parse_seconds(run_and_capture(context.self, {"--first-call-child",
                                                                      class_names.at(kind), list}),
                                       disk_hits));
        disk.params = Json::object({{"disk_hits", disk_hits}});
    }
    return {cold, disk, memory};
}

}  // namespace

namespace {

// The dtypes whose first kiln::add a new process times; the first is a warm-up.
constexpr std::array routine_dtypes{DType::float32, DType::int8,      DType::int16,
                                    DType::uint16,  DType::uint32,    DType::float16,
                                    DType::int64,   DType::complex64, DType::uint8};

// In a process whose memory cache is empty, the host time of the first kiln::add of each dtype
// named, after the first (a warm-up).
int routine_first_calls(const std::vector<std::string>& dtype_names) {
    reset_compile_cache_statistics();
    for (std::size_t i = 0; i < dtype_names.size(); ++i) {
        const ndarray x = ones({elements}, dtype_from_name(dtype_names[i]));
        synchronize(current_stream());
        // data(): under lazy fusion the add compiles and launches only when its value is needed.
        const double seconds = host_seconds([&] { (void)kiln::add(x, x).data(); });
        synchronize(current_stream());
        if (i > 0) {
            std::printf("%.9g\n", seconds);
        }
    }
    std::printf("disk_hits %llu\n",
                static_cast<unsigned long long>(compile_cache_statistics().disk_hits));
    return 0;
}

// The first kiln::add of a dtype in a new process, its kernel on disk: the parent calls each
// dtype first, so that the child finds every one there.
Record routine_first_call(const Context& context) {
    Record r = make_record("first_call_disk_routine",
                           "first kiln::add of a dtype in a new process, from the disk cache",
                           "routine", {elements}, "various", "compile");
    for (const DType dtype : routine_dtypes) {
        const ndarray x = ones({elements}, dtype);
        (void)kiln::add(x, x).data();
    }
    synchronize(current_stream());
    if (!compile_cache_directory()) {
        r.note = "the disk cache is off (KILN_CACHE_IN_MEMORY)";
        return r;
    }
    std::string names;
    for (const DType dtype : routine_dtypes) {
        if (!names.empty()) {
            names += ',';
        }
        names += name(dtype);
    }
    std::uint64_t disk_hits = 0;
    store_host(
        r, parse_seconds(run_and_capture(context.self, {"--first-call-child", "routine", names}),
                         disk_hits));
    r.params = Json::object({{"disk_hits", disk_hits}});
    return r;
}

}  // namespace

int first_call_child(const std::string& kernel_class, const std::vector<std::string>& nonces) {
    if (kernel_class == "routine") {
        return routine_first_calls(nonces);
    }
    const std::size_t kind = class_index(kernel_class);
    if (nonces.empty()) {
        throw std::invalid_argument("kiln-bench: --first-call-child: no kernels to time");
    }
    const ndarray x = ones({elements}, float32);
    const ndarray y = ones({elements}, float32);
    (void)timed_first_call(kind, nonces[0], x, y);
    reset_compile_cache_statistics();
    for (std::size_t i = 1; i < nonces.size(); ++i) {
        std::printf("%.9g\n", timed_first_call(kind, nonces[i], x, y));
    }
    std::printf("disk_hits %llu\n",
                static_cast<unsigned long long>(compile_cache_statistics().disk_hits));
    return 0;
}

std::vector<Workload> first_call_workloads() {
    std::vector<Workload> all;
    for (std::size_t kind = 0; kind < class_names.size(); ++kind) {
        Workload workload{std::string("first_call_") + class_names.at(kind),
                          std::string("first call of a new ") + class_titles.at(kind) +
                              ": cold, disk-cache hit, memory-cache hit",
                          true,
                          false,
                          nullptr,
                          [kind](const Context& context) { return first_calls(context, kind); }};
        all.push_back(std::move(workload));
    }
    all.push_back({"first_call_disk_routine",
                   "first kiln::add of a dtype in a new process, from the disk cache", true, false,
                   [](const Context& context) { return routine_first_call(context); }});
    return all;
}

}  // namespace kiln::bench
