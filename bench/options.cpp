#include "options.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::bench {

namespace {

// Accepts a number of type T in (0, high]. Written here because CLI11's Range lets NaN through
// and names its bounds to the last digit.
template <typename T>
CLI::Validator positive(T high, const std::string& expected) {
    return {[high, expected](std::string& text) {
                T value{};
                const char* last = text.data() + text.size();
                const auto [end, error] = std::from_chars(text.data(), last, value);
                if (error != std::errc{} || end != last || !(value > 0) || value > high) {
                    return "expected " + expected + ", got '" + text + "'";
                }
                return std::string();
            },
            ""};
}

std::vector<std::string> split_commas(std::string_view text) {
    std::vector<std::string> parts;
    while (!text.empty()) {
        const auto comma = text.find(',');
        parts.emplace_back(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    }
    return parts;
}

// kiln-bench's options on `app`, parsed into `options`; `child` takes --first-call-child's
// class and comma-separated nonces.
void describe(CLI::App& app, Options& options, std::pair<std::string, std::string>& child) {
    const auto count = positive(std::numeric_limits<int>::max(), "a positive integer");
    // A repeated option takes its last value, as options usually do.
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.set_help_flag();
    app.add_flag("-h,--help", options.help, "print this help and exit");
    app.add_option("--filter", options.filter,
                   "run the workloads whose name matches REGEX (a search)")
        ->type_name("REGEX");
    app.add_option("--repeat", options.repeat,
                   "timed GPU runs per workload after warm-up; the median is reported (default 20)")
        ->type_name("N")
        ->check(count);
    app.add_option("--warmup", options.warmup, "untimed GPU runs before them (default 3)")
        ->type_name("N")
        ->check(count);
    app.add_option("--cpu-repeat", options.cpu_repeat,
                   "timed Kokkos runs per workload, after one that gives the reference (default 5)")
        ->type_name("N")
        ->check(count);
    app.add_option("--size-scale", options.size_scale,
                   "multiply element counts by F (0.001 for a quick run; shapes stay valid)")
        ->type_name("F")
        ->check(positive(1e6, "a positive number up to 1e6"));
    app.add_option("--json", options.json_path,
                   "where to write the results (default <build folder>/bench-results/"
                   "<device>-<date>.json; a "
                   "directory, or a PATH ending in /, gets that file name inside it)")
        ->type_name("PATH");
    app.add_flag("--list", options.list, "list the workloads and exit");
    // Listed, not hidden: CLI11 leaves a hidden option's name out of its error messages.
    app.add_option("--first-call-child", child,
                   "kiln-bench runs itself with this for the disk-cache half of the "
                   "first-call workload")
        ->type_name("CLASS NONCES")
        ->group("Internal");
}

}  // namespace

Options parse_options(std::span<char* const> args) {
    Options options;
    std::pair<std::string, std::string> child;
    CLI::App app;
    describe(app, options, child);
    // CLI11 takes the arguments last first.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        throw std::invalid_argument("kiln-bench: " + std::string(e.what()) + " (see --help)");
    }
    if (app.count("--first-call-child") > 0) {
        options.child_class = child.first;
        options.child_nonces = split_commas(child.second);
    }
    return options;
}

std::string usage() {
    Options unused;
    std::pair<std::string, std::string> child;
    CLI::App app("kiln-bench: the seeds' custom kernels on the GPU against Kokkos CPU references",
                 "kiln-bench");
    describe(app, unused, child);
    return app.help();
}

}  // namespace kiln::bench
