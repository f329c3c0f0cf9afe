// Prints what the installed kiln sees. Exits 0 with or without a device; 1 if kiln misbehaves.
#include <kiln/kiln.hpp>

#include <iostream>
#include <string>
#include <string_view>

int main() {
    // The package's version (CMake's or pkg-config's), the headers' and the library's agree.
    const std::string numbers = std::to_string(KILN_VERSION_MAJOR) + '.' +
                                std::to_string(KILN_VERSION_MINOR) + '.' +
                                std::to_string(KILN_VERSION_PATCH);
    if (kiln::version() != KILN_PACKAGE_VERSION || numbers != KILN_VERSION ||
        std::string_view(KILN_VERSION) != KILN_PACKAGE_VERSION) {
        std::cout << "versions differ: package " << KILN_PACKAGE_VERSION << ", KILN_VERSION "
                  << KILN_VERSION << " (" << numbers << "), kiln::version() " << kiln::version()
                  << '\n';
        return 1;
    }
    std::cout << "kiln " << kiln::version() << ", backends:";
    for (auto kind : kiln::compiled_backends()) {
        std::cout << ' ' << kiln::to_string(kind);
    }
    std::cout << '\n';
    const int count = kiln::device_count();
    if (count == 0) {
        std::cout << "no device: " << kiln::no_device_reason() << '\n';
        return kiln::no_device_reason().empty() ? 1 : 0;
    }
    const kiln::Device device;
    std::cout << count << " device(s); default: " << device.properties().name << '\n';
    return 0;
}
