// kiln-info: prints kiln::show_config(), what kiln finds on this machine.
#include <kiln/show_config.hpp>

#include <exception>
#include <iostream>
#include <string_view>

int main(int argc, char** argv) {
    constexpr std::string_view usage =
        "usage: kiln-info\nprints kiln's version, backends, devices, vendor libraries, compile "
        "cache and the environment variables that are set\n";
    if (argc > 1) {
        const std::string_view option(argv[1]);
        if (option == "--help" || option == "-h") {
            std::cout << usage;
            return 0;
        }
        std::cerr << "kiln-info: unknown argument '" << option << "': expected none\n" << usage;
        return 2;
    }
    try {
        kiln::show_config();
    } catch (const std::exception& e) {
        std::cerr << "kiln-info: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
