// Chooses the active backend among those compiled in.
#include "backend.hpp"
#include "backend_traits.hpp"
#include "env.hpp"
#include "lifetime.hpp"
#include "log.hpp"

#include <kiln/config.hpp>
#include <kiln/error.hpp>

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <string>

namespace kiln::detail {

#if KILN_HAS_CUDA
std::unique_ptr<Backend> make_cuda_backend();
#endif
#if KILN_HAS_HIP
std::unique_ptr<Backend> make_hip_backend();
#endif
#if KILN_HAS_HOST
std::unique_ptr<Backend> make_host_backend();
#endif

namespace {

std::unique_ptr<Backend> make_backend(BackendKind kind) {
    switch (kind) {
#if KILN_HAS_CUDA
        case BackendKind::cuda:
            return make_cuda_backend();
#endif
#if KILN_HAS_HIP
        case BackendKind::hip:
            return make_hip_backend();
#endif
#if KILN_HAS_HOST
        case BackendKind::host:
            return make_host_backend();
#endif
        default:
            break;
    }
    throw Error("kiln: backend '" + std::string(to_string(kind)) + "' is not compiled in");
}

std::string compiled_list() {
    std::string list;
    for (BackendKind kind : compiled_backends()) {
        list += (list.empty() ? "" : ", ") + std::string(to_string(kind));
    }
    return list.empty() ? "none" : list;
}

// The active backend and, when it sees no device or runs on the CPU, why.
struct Choice {
    Backend* backend;
    std::string reason;
};

// Why the CPU's backend runs the kernels: no GPU backend was compiled in, or none found a device
// (`gpu_reasons`: each one's reason).
std::string cpu_fallback_reason(const std::string& gpu_reasons) {
    return (gpu_reasons.empty() ? std::string("this build of kiln has no GPU backend")
                                : "no GPU backend found a device: " + gpu_reasons) +
           "; running on the host backend";
}

// Backends are never destroyed: they must not call the vendor runtime while the process exits.
Choice choose() {
    const auto kinds = compiled_backends();
    if (kinds.empty()) {
        throw NoDevice(
            "kiln: no device: this build of kiln has no backend "
            "(configure with KILN_ENABLE_HOST, KILN_ENABLE_CUDA or KILN_ENABLE_HIP)");
    }
    if (auto name = env::get("KILN_BACKEND")) {
        const BackendKind kind = parse_backend(*name);
        Backend* named = &backend_of(kind);
        const int count = named->device_count();
        log::info("backend: {} (KILN_BACKEND), {} device(s)", *name, count);
        if (count == 0) {
            return {named, named->no_device_reason()};
        }
        const bool cpu = traits(kind).runs_on_cpu;
        return {named, cpu ? "KILN_BACKEND=" + *name + " asks for the host backend" : ""};
    }
    std::string reasons;
    Backend* fallback = nullptr;
    for (BackendKind kind : kinds) {
        Backend* candidate = &backend_of(kind);
        if (const int count = candidate->device_count(); count > 0) {
            log::info("backend: {}, the first of [{}] that sees a device: {} device(s)",
                      to_string(kind), compiled_list(), count);
            const bool cpu = traits(kind).runs_on_cpu;
            return {candidate, cpu ? cpu_fallback_reason(reasons) : ""};
        }
        log::info("backend: {} sees no device: {}", to_string(kind), candidate->no_device_reason());
        reasons += (reasons.empty() ? "" : "; ") +
                   (kinds.size() > 1 ? std::string(to_string(kind)) + ": " : std::string()) +
                   candidate->no_device_reason();
        // Without a device, the first backend whose libraries loaded: it can still compile.
        if (fallback == nullptr || (!libraries_loaded(*fallback) && libraries_loaded(*candidate))) {
            fallback = candidate;
        }
    }
    log::info("backend: {}, no backend sees a device", to_string(fallback->kind()));
    return {fallback, reasons};
}

const Choice& choice() {
    // NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): the one shared backend
    static const Choice* active = [] {
        auto* chosen = new Choice(choose());
        // Initialises the vendor runtime first, so that the exit watch runs before its teardown.
        (void)chosen->backend->device_count();
        watch_process_exit();
        return chosen;
    }();
    return *active;
}

}  // namespace

BackendKind parse_backend(std::string_view name) {
    for (BackendKind kind : compiled_backends()) {
        if (name == to_string(kind)) {
            return kind;
        }
    }
    // NoDevice: device_count() reports none, with this reason, rather than throwing.
    throw NoDevice("kiln: KILN_BACKEND='" + std::string(name) +
                   "' is not a backend of this build; expected one of: " + compiled_list());
}

int default_device_id() {
    static const int id = [] {
        auto text = env::get("KILN_DEVICE");
        return text ? env::parse_index("KILN_DEVICE", *text) : 0;
    }();
    return id;
}

Backend& backend() {
    return *choice().backend;
}

namespace {

// Whether this thread has made a device current, or been placed on the default one.
thread_local bool thread_placed = false;

}  // namespace

// Each thread starts on the default device (KILN_DEVICE), as Device() names it, so that arrays,
// streams and kernels of a thread that chose no device go there too.
int current_device() {
    Backend& active = backend();
    if (!thread_placed) {
        if (const int id = default_device_id(); id != 0 && active.device_count() > 0) {
            if (id >= active.device_count()) {
                throw Error("kiln: KILN_DEVICE is " + std::to_string(id) + ", but the " +
                            std::string(to_string(active.kind())) + " backend sees " +
                            std::to_string(active.device_count()) + " device(s)");
            }
            active.set_device(id);
        }
        thread_placed = true;
    }
    return active.current_device();
}

void set_current_device(int device) {
    backend().set_device(device);
    thread_placed = true;
}

Backend& backend_of(BackendKind kind) {
    static std::mutex mutex;
    // Never destroyed, like the active one.
    static std::array<Backend*, static_cast<std::size_t>(BackendKind::host) + 1> made{};
    const std::scoped_lock lock(mutex);
    Backend*& instance = made.at(static_cast<std::size_t>(kind));
    if (instance == nullptr) {
        instance = make_backend(kind).release();
    }
    return *instance;
}

std::string reason_for_no_device() {
    return choice().reason;
}

bool libraries_loaded(Backend& backend) {
    return std::ranges::all_of(backend.libraries(), [](const VendorLibraryStatus& library) {
        return !library.path.empty();
    });
}

}  // namespace kiln::detail

namespace kiln {

std::string_view to_string(BackendKind kind) noexcept {
    return detail::traits(kind).name;
}

std::vector<BackendKind> compiled_backends() {
    std::vector<BackendKind> kinds;
#if KILN_HAS_CUDA
    kinds.push_back(BackendKind::cuda);
#endif
#if KILN_HAS_HIP
    kinds.push_back(BackendKind::hip);
#endif
#if KILN_HAS_HOST
    kinds.push_back(BackendKind::host);
#endif
    return kinds;
}

BackendKind active_backend() {
    return detail::backend().kind();
}

}  // namespace kiln
