#include "options.hpp"

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace kiln::bench {

namespace {

std::string_view value_of(std::span<char* const> args, std::size_t& i) {
    if (i + 1 >= args.size()) {
        throw std::invalid_argument("kiln-bench: " + std::string(args[i]) + " needs a value");
    }
    return args[++i];
}

int positive_int(std::string_view option, std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || value < 1) {
        throw std::invalid_argument("kiln-bench: " + std::string(option) +
                                    ": expected a positive integer, got '" + std::string(text) +
                                    "'");
    }
    return value;
}

double positive_real(std::string_view option, std::string_view text) {
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(std::string(text), &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !(value > 0) || value > 1e6) {
        throw std::invalid_argument("kiln-bench: " + std::string(option) +
                                    ": expected a positive number, got '" + std::string(text) +
                                    "'");
    }
    return value;
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

}  // namespace

Options parse_options(std::span<char* const> args) {
    Options options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "--filter") {
            options.filter = value_of(args, i);
        } else if (arg == "--repeat") {
            options.repeat = positive_int(arg, value_of(args, i));
        } else if (arg == "--warmup") {
            options.warmup = positive_int(arg, value_of(args, i));
        } else if (arg == "--cpu-repeat") {
            options.cpu_repeat = positive_int(arg, value_of(args, i));
        } else if (arg == "--size-scale") {
            options.size_scale = positive_real(arg, value_of(args, i));
        } else if (arg == "--json") {
            options.json_path = value_of(args, i);
        } else if (arg == "--list") {
            options.list = true;
        } else if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg == "--first-call-child") {
            options.child_class = std::string(value_of(args, i));
            options.child_nonces = split_commas(value_of(args, i));
        } else {
            throw std::invalid_argument("kiln-bench: unknown option '" + std::string(arg) +
                                        "' (see --help)");
        }
    }
    return options;
}

std::string usage() {
    return "usage: kiln-bench [--filter REGEX] [--repeat N] [--warmup N] [--cpu-repeat N]\n"
           "                  [--size-scale F] [--json PATH] [--list]\n"
           "  --filter REGEX   run the workloads whose name matches REGEX (a search)\n"
           "  --repeat N       timed GPU runs per workload after warm-up; the median is reported "
           "(default 20)\n"
           "  --warmup N       untimed GPU runs before them (default 3)\n"
           "  --cpu-repeat N   timed Kokkos runs per workload, after one that gives the reference "
           "(default 5)\n"
           "  --size-scale F   multiply element counts by F (0.001 for a quick run; shapes stay "
           "valid)\n"
           "  --json PATH      where to write the results (default "
           "bench/results/<device>-<date>.json;\n"
           "                   a directory, or a PATH ending in /, gets that file name inside "
           "it)\n"
           "  --list           list the workloads and exit\n";
}

}  // namespace kiln::bench
