// Chooses the active backend among those compiled in.
#include "backend.hpp"
#include "env.hpp"
#include "lifetime.hpp"

#include <kiln/config.hpp>
#include <kiln/error.hpp>

#include <memory>

namespace kiln::detail {

#if KILN_HAS_CUDA
std::unique_ptr<Backend> make_cuda_backend();
#endif
#if KILN_HAS_HIP
std::unique_ptr<Backend> make_hip_backend();
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

// Never destroyed: backends must not call the vendor runtime while the process exits.
Backend* choose() {
    const auto kinds = compiled_backends();
    if (kinds.empty()) {
        throw NoDevice(
            "kiln: no device: this build of kiln has no GPU backend "
            "(configure with KILN_ENABLE_CUDA or KILN_ENABLE_HIP)");
    }
    if (auto name = env::get("KILN_BACKEND")) {
        return make_backend(parse_backend(*name)).release();
    }
    std::unique_ptr<Backend> first;
    for (BackendKind kind : kinds) {
        auto candidate = make_backend(kind);
        if (candidate->device_count() > 0) {
            return candidate.release();
        }
        if (!first) {
            first = std::move(candidate);
        }
    }
    return first.release();
}

}  // namespace

BackendKind parse_backend(std::string_view name) {
    for (BackendKind kind : compiled_backends()) {
        if (name == to_string(kind)) {
            return kind;
        }
    }
    throw Error("kiln: KILN_BACKEND='" + std::string(name) +
                "' is not a backend of this build; compiled: " + compiled_list());
}

Backend& backend() {
    // NOLINTNEXTLINE(cppcoreguidelines-avoid-non-const-global-variables): the one shared backend
    static Backend& active = []() -> Backend& {
        Backend& chosen = *choose();
        // Initialises the vendor runtime first, so that the exit watch runs before its teardown.
        (void)chosen.device_count();
        watch_process_exit();
        return chosen;
    }();
    return active;
}

}  // namespace kiln::detail

namespace kiln {

std::string_view to_string(BackendKind kind) noexcept {
    return kind == BackendKind::cuda ? "cuda" : "hip";
}

std::vector<BackendKind> compiled_backends() {
    std::vector<BackendKind> kinds;
#if KILN_HAS_CUDA
    kinds.push_back(BackendKind::cuda);
#endif
#if KILN_HAS_HIP
    kinds.push_back(BackendKind::hip);
#endif
    return kinds;
}

BackendKind active_backend() {
    return detail::backend().kind();
}

}  // namespace kiln
