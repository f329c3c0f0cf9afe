// kiln-bench's output: the table on stdout and the results file.
#pragma once

#include "json.hpp"
#include "record.hpp"
#include "system_info.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kiln::bench {

// Figures derived from a record and the run's copy bandwidth.
struct Derived {
    std::optional<double> gbps;           // bytes over the median GPU time
    std::optional<double> copy_fraction;  // gbps over the copy bandwidth
    std::optional<double> speedup;        // Kokkos time over the median GPU time
    std::optional<double> gflops;
};

[[nodiscard]] Derived derive(const Record& record, std::optional<double> copy_gbps);

// The table, one line per record, its time column headed `time_heading`.
[[nodiscard]] std::string table(const std::vector<Record>& records, std::optional<double> copy_gbps,
                                const std::string& time_heading);

// The whole results file: the rows that ran under "workloads", those skipped under "skipped".
[[nodiscard]] Json results_json(const SystemInfo& system, const Json& run,
                                const std::vector<Record>& records,
                                std::optional<double> copy_gbps);

}  // namespace kiln::bench
