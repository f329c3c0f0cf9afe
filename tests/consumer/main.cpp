// Prints what the installed kiln sees. Exits 0 with or without a device; 1 if kiln misbehaves.
#include <kiln/kiln.hpp>

#include <iostream>

int main() {
    std::cout << "kiln " << KILN_VERSION << ", backends:";
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
