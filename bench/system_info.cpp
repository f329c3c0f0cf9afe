#include "system_info.hpp"

#include "core/backend.hpp"

#include <kiln/backend.hpp>
#include <kiln/config.hpp>
#include <kiln/device.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cctype>
#include <ctime>
#include <fstream>
#include <sstream>

namespace kiln::bench {

namespace {

// NVIDIA's and AMD's kernel drivers say their version here.
std::string driver_version() {
    std::ifstream nvidia("/proc/driver/nvidia/version");
    std::string line;
    if (std::getline(nvidia, line)) {
        // "NVRM version: NVIDIA UNIX [Open Kernel Module for] x86_64 ... 580.159.04  Wed ...":
        // the first word made of digits and dots.
        std::istringstream words(line);
        for (std::string word; words >> word;) {
            if (std::isdigit(static_cast<unsigned char>(word[0])) != 0 &&
                word.find('.') != std::string::npos &&
                word.find_first_not_of("0123456789.") == std::string::npos) {
                return "NVIDIA " + word;
            }
        }
        return line;
    }
    std::ifstream amd("/sys/module/amdgpu/version");
    if (std::getline(amd, line)) {
        return "amdgpu " + line;
    }
    return "unknown";
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    std::array<char, 16> text{};
    (void)std::strftime(text.data(), text.size(), "%Y-%m-%d", &local);
    return text.data();
}

std::string kokkos_version() {
    return std::to_string(KOKKOS_VERSION / 10000) + "." +
           std::to_string(KOKKOS_VERSION / 100 % 100) + "." + std::to_string(KOKKOS_VERSION % 100);
}

}  // namespace

SystemInfo system_info(bool device, bool host) {
    SystemInfo info;
    info.date = today();
#if defined(__clang__)
    info.host_compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    info.host_compiler = "gcc " __VERSION__;
#endif
    info.kokkos_space = Kokkos::DefaultHostExecutionSpace::name();
    info.kokkos_concurrency = Kokkos::DefaultHostExecutionSpace::concurrency();
    info.kokkos_version = kokkos_version();
    info.backend = "none";
    info.compiler = "none";
    if (!compiled_backends().empty()) {
        auto& backend = detail::backend();
        info.backend = std::string(to_string(backend.kind()));
        info.compiler = detail::libraries_loaded(backend) || (host && device)
                            ? backend.compiler_version()
                            : "none";
        for (const auto& library : backend.libraries()) {
            info.libraries += (info.libraries.empty() ? "" : ", ") + library.name + " " +
                              (library.path.empty() ? "not found" : library.path);
        }
    }
    if (device) {
        const auto& properties = Device::current().properties();
        info.device = properties.name;
        info.arch = properties.arch;
        info.multiprocessors = properties.multiprocessor_count;
        info.memory_bytes = properties.total_memory;
        info.driver = host ? "none" : driver_version();
    }
    return info;
}

Json SystemInfo::json() const {
    return Json::object({{"device", device},
                         {"arch", arch},
                         {"multiprocessors", multiprocessors},
                         {"memory_bytes", static_cast<std::int64_t>(memory_bytes)},
                         {"driver", driver},
                         {"backend", backend},
                         {"compiler", compiler},
                         {"vendor_libraries", libraries},
                         {"host_compiler", host_compiler},
                         {"kiln_version", KILN_VERSION},
                         {"kokkos_execution_space", kokkos_space},
                         {"kokkos_concurrency", kokkos_concurrency},
                         {"kokkos_version", kokkos_version},
                         {"date", date}});
}

std::string file_name_part(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!out.empty() && out.back() != '-') {
            out += '-';
        }
    }
    while (!out.empty() && out.back() == '-') {
        out.pop_back();
    }
    return out.empty() ? "device" : out;
}

}  // namespace kiln::bench
