#include "cpu.hpp"

#include "../../core/compile/sha256.hpp"

#include <fstream>

namespace kiln::detail::host {

namespace {

struct CpuInfo {
    std::string name = "CPU";
    std::string digest;
};

// The first processor's "model name" and "flags" lines (ARM: "CPU part" and "Features").
const CpuInfo& cpu_info() {
    static const CpuInfo info = [] {
        CpuInfo out;
        std::ifstream cpuinfo("/proc/cpuinfo");
        std::string identity;
        for (std::string line; std::getline(cpuinfo, line) && !line.empty();) {
            const auto colon = line.find(':');
            if (colon == std::string::npos) {
                continue;
            }
            std::string key = line.substr(0, colon);
            key.erase(key.find_last_not_of(" \t") + 1);
            const std::string value =
                colon + 2 <= line.size() ? line.substr(colon + 2) : std::string();
            if (key == "model name") {
                out.name = value;
            }
            if (key == "model name" || key == "flags" || key == "CPU part" || key == "Features") {
                identity.append(key).append("=").append(value).append("\n");
            }
        }
        out.digest = sha256_hex(identity).substr(0, 16);
        return out;
    }();
    return info;
}

}  // namespace

const std::string& cpu_name() {
    return cpu_info().name;
}

const std::string& cpu_features_digest() {
    return cpu_info().digest;
}

}  // namespace kiln::detail::host
