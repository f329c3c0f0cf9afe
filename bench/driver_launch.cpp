#include "driver_launch.hpp"

#include <kiln/config.hpp>
#include <kiln/error.hpp>

#include <dlfcn.h>

namespace kiln::bench {

namespace {

// The driver calls used here, by vendor: cuModule*/cuLaunchKernel or their HIP twins, which take
// the same arguments and return 0 on success.
struct DriverNames {
    const char* library;
    const char* load;
    const char* get_function;
    const char* launch;
};

DriverNames names_for(BackendKind backend) {
    const DriverNames cuda{"libcuda.so.1", "cuModuleLoadData", "cuModuleGetFunction",
                           "cuLaunchKernel"};
    switch (backend) {
        case BackendKind::cuda:
            return cuda;
        case BackendKind::hip:
            // HIP's NVIDIA platform runs its module calls on CUDA's driver.
            if (KILN_HIP_NVIDIA != 0) {
                return cuda;
            }
            return {"libamdhip64.so", "hipModuleLoadData", "hipModuleGetFunction",
                    "hipModuleLaunchKernel"};
        case BackendKind::host:
            break;
    }
    throw Error("kiln-bench: driver launch: no driver for backend " +
                std::string(to_string(backend)));
}

void* symbol(void* library, const char* name) {
    void* found = ::dlsym(library, name);
    if (found == nullptr) {
        throw Error(std::string("kiln-bench: driver launch: no symbol ") + name);
    }
    return found;
}

void check(int rc, const char* call) {
    if (rc != 0) {
        throw Error(std::string("kiln-bench: driver launch: ") + call + " returned " +
                    std::to_string(rc));
    }
}

}  // namespace

DriverLaunch::DriverLaunch(BackendKind backend, const std::vector<char>& image,
                           const std::string& kernel) {
    const DriverNames names = names_for(backend);
    // Never closed: the module lives as long as the process.
    void* library = ::dlopen(names.library, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        throw Error(std::string("kiln-bench: driver launch: cannot open ") + names.library);
    }
    using Load = int (*)(void**, const void*);
    using GetFunction = int (*)(void**, void*, const char*);
    // NOLINTBEGIN(cppcoreguidelines-pro-type-reinterpret-cast): dlsym returns untyped symbols
    const auto load = reinterpret_cast<Load>(symbol(library, names.load));
    const auto get_function = reinterpret_cast<GetFunction>(symbol(library, names.get_function));
    launch_ = reinterpret_cast<Launch>(symbol(library, names.launch));
    // NOLINTEND(cppcoreguidelines-pro-type-reinterpret-cast)
    void* module = nullptr;
    check(load(&module, image.data()), names.load);
    check(get_function(&function_, module, kernel.c_str()), names.get_function);
}

void DriverLaunch::operator()(Dim3 grid, Dim3 block, void** args, StreamView stream) const {
    check(launch_(function_, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, stream.native(),
                  args, nullptr),
          "launch");
}

}  // namespace kiln::bench
