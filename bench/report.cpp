#include "report.hpp"

#include <kiln/dtype.hpp>

#include <array>
#include <cstdio>

namespace kiln::bench {

namespace {

std::string number(std::optional<double> value, const char* pattern = "%.4g") {
    if (!value) {
        return "-";
    }
    std::array<char, 32> text{};
    // Large figures (microseconds of a compile) read better without an exponent.
    (void)std::snprintf(text.data(), text.size(), *value >= 1e4 ? "%.0f" : pattern, *value);
    return text.data();
}

Json optional_json(std::optional<double> value) {
    return value ? Json(*value) : Json();
}

Json input_json(const InputSpec& input) {
    Json shape = Json::array();
    for (const auto extent : input.shape) {
        shape.emplace_back(extent);
    }
    Json first = Json::array();
    for (const double value : input.first) {
        first.emplace_back(value);
    }
    Json out = Json::object({{"name", input.name},
                             {"distribution", input.distribution},
                             {"seed", input.seed},
                             {"dtype", std::string(name(input.dtype))},
                             {"shape", shape}});
    if (input.distribution == "uniform") {
        out["low"] = 0.0;
        out["high"] = input.a;
    } else if (input.distribution == "normal") {
        out["mean"] = 0.0;
        out["stddev"] = input.a;
    } else {
        out["low"] = static_cast<std::int64_t>(input.a);
        out["high"] = static_cast<std::int64_t>(input.b);
    }
    if (!input.view.empty()) {
        out["view"] = input.view;
    }
    out["first"] = first;
    return out;
}

Json record_json(const Record& r, std::optional<double> copy_gbps) {
    const Derived d = derive(r, copy_gbps);
    Json inputs = Json::array();
    for (const auto& input : r.inputs) {
        inputs.push_back(input_json(input));
    }
    Json out = Json::object({{"name", r.name},
                             {"full_size_name", r.full_size_name},
                             {"description", r.description},
                             {"kernel_class", r.kernel_class},
                             {"size", r.size},
                             {"dtype", r.dtype},
                             {"bound", r.bound},
                             {"bytes", r.bytes},
                             {"flops", r.flops},
                             {"gpu_ms", optional_json(r.gpu_ms)},
                             {"gpu_ms_min", optional_json(r.gpu_ms_min)},
                             {"host_us_per_call", optional_json(r.host_us)},
                             {"samples", r.samples},
                             {"gbps", optional_json(d.gbps)},
                             {"copy_fraction", optional_json(d.copy_fraction)},
                             {"gflops", optional_json(d.gflops)},
                             {"kokkos_ms", optional_json(r.kokkos_ms)},
                             {"speedup_over_kokkos", optional_json(d.speedup)}});
    out["check"] = Json::object({{"status", r.check.status},
                                 {"error", r.check.error},
                                 {"tolerance", r.check.tolerance},
                                 {"detail", r.check.detail}});
    out["peak_bytes"] = r.peak_bytes ? Json(static_cast<std::int64_t>(*r.peak_bytes)) : Json();
    out["note"] = r.note;
    out["inputs"] = inputs;
    out["kernel"] = r.kernel;
    out["params"] = r.params;
    return out;
}

}  // namespace

Derived derive(const Record& record, std::optional<double> copy_gbps) {
    Derived d;
    if (record.gpu_ms && *record.gpu_ms > 0) {
        const double seconds = *record.gpu_ms * 1e-3;
        if (record.bytes > 0) {
            d.gbps = record.bytes / seconds / 1e9;
            if (copy_gbps && *copy_gbps > 0) {
                d.copy_fraction = *d.gbps / *copy_gbps;
            }
        }
        if (record.flops > 0) {
            d.gflops = record.flops / seconds / 1e9;
        }
        if (record.kokkos_ms) {
            d.speedup = *record.kokkos_ms / *record.gpu_ms;
        }
    }
    return d;
}

std::string table(const std::vector<Record>& records, std::optional<double> copy_gbps,
                  const std::string& time_heading) {
    std::string out;
    std::array<char, 320> line{};
    (void)std::snprintf(line.data(), line.size(),
                        "%-34s %-15s %10s %12s %8s %6s %10s %9s %-5s %9s\n", "workload", "size",
                        time_heading.c_str(), "host us/call", "GB/s", "%copy", "Kokkos ms",
                        "speedup", "check", "peak MiB");
    out += line.data();
    for (const auto& r : records) {
        const Derived d = derive(r, copy_gbps);
        std::optional<double> percent;
        if (d.copy_fraction) {
            percent = *d.copy_fraction * 100;
        }
        std::optional<double> peak_mib;
        if (r.peak_bytes) {
            peak_mib = static_cast<double>(*r.peak_bytes) / (1 << 20);
        }
        (void)std::snprintf(line.data(), line.size(),
                            "%-34s %-15s %10s %12s %8s %6s %10s %9s %-5s %9s\n", r.name.c_str(),
                            r.size.c_str(), number(r.gpu_ms).c_str(), number(r.host_us).c_str(),
                            number(d.gbps, "%.1f").c_str(), number(percent, "%.1f").c_str(),
                            number(r.kokkos_ms).c_str(), number(d.speedup, "%.1fx").c_str(),
                            r.check.status.c_str(), number(peak_mib, "%.1f").c_str());
        out += line.data();
        if (!r.skipped.empty()) {
            out += "    skipped: " + r.skipped + "\n";
        }
        if (!r.check.detail.empty()) {
            out += "    check: " + r.check.detail + "\n";
        }
        if (!r.note.empty()) {
            out += "    note: " + r.note + "\n";
        }
    }
    return out;
}

Json results_json(const SystemInfo& system, const Json& run, const std::vector<Record>& records,
                  std::optional<double> copy_gbps) {
    Json rows = Json::array();
    Json skipped = Json::array();
    for (const auto& r : records) {
        if (r.skipped.empty()) {
            rows.push_back(record_json(r, copy_gbps));
        } else {
            skipped.push_back(Json::object({{"name", r.name},
                                            {"full_size_name", r.full_size_name},
                                            {"description", r.description},
                                            {"reason", r.skipped}}));
        }
    }
    return Json::object({{"format", "kiln-bench results, version 1"},
                         {"system", system.json()},
                         {"run", run},
                         {"copy_gbps", optional_json(copy_gbps)},
                         {"workloads", rows},
                         {"skipped", skipped}});
}

}  // namespace kiln::bench
