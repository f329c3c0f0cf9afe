// Backend selection and device discovery, on any machine: with or without a GPU.
#include "core/backend.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

TEST(Backend, NamesMatchKilnBackendValues) {
    EXPECT_EQ(kiln::to_string(kiln::BackendKind::cuda), "cuda");
    EXPECT_EQ(kiln::to_string(kiln::BackendKind::hip), "hip");
    EXPECT_EQ(kiln::to_string(kiln::BackendKind::host), "host");
    for (auto kind : kiln::compiled_backends()) {
        EXPECT_EQ(kiln::detail::parse_backend(kiln::to_string(kind)), kind);
    }
}

TEST(Backend, UnknownBackendNameListsTheCompiledOnes) {
    try {
        (void)kiln::detail::parse_backend("metal");
        FAIL() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("KILN_BACKEND='metal'"), std::string::npos) << what;
        EXPECT_NE(what.find(KILN_HAS_CUDA   ? "cuda"
                            : KILN_HAS_HIP  ? "hip"
                            : KILN_HAS_HOST ? "host"
                                            : "none"),
                  std::string::npos)
            << what;
    }
}

// A KILN_BACKEND that names no backend of this build means no device, not an exception (as
// device_count() promises), and the reason lists the valid names. In a child process: the backend
// is chosen once per process.
TEST(BackendDeathTest, UnknownKilnBackendMeansNoDeviceWithAReason) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const char* set = std::getenv("KILN_BACKEND");  // NOLINT(concurrency-mt-unsafe)
    const std::string before = set != nullptr ? set : "";
    setenv("KILN_BACKEND", "cdua", 1);  // NOLINT(concurrency-mt-unsafe): the child reads it
    std::string names;
    for (auto kind : kiln::compiled_backends()) {
        names += (names.empty() ? "" : ", ") + std::string(kiln::to_string(kind));
    }
    EXPECT_EXIT(
        {
            std::fprintf(stderr, "devices %d: %s\n", kiln::device_count(),
                         kiln::no_device_reason().c_str());
            std::_Exit(kiln::device_count() == 0 ? 3 : 0);
        },
        testing::ExitedWithCode(3),
        "devices 0: kiln: KILN_BACKEND='cdua' is not a backend of this build; expected one of: " +
            names);
    if (set != nullptr) {
        setenv("KILN_BACKEND", before.c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
    } else {
        unsetenv("KILN_BACKEND");  // NOLINT(concurrency-mt-unsafe)
    }
}

TEST(Backend, CompiledBackendsFollowTheBuildConfiguration) {
    const auto kinds = kiln::compiled_backends();
    EXPECT_EQ(kinds.size(), static_cast<std::size_t>(KILN_HAS_CUDA + KILN_HAS_HIP + KILN_HAS_HOST));
    // The GPU backends come first: host is the default only where no GPU backend sees a device.
    if (KILN_HAS_HOST) {
        EXPECT_EQ(kinds.back(), kiln::BackendKind::host);
    }
    if (kinds.empty()) {
        EXPECT_THROW((void)kiln::active_backend(), kiln::NoDevice);
    } else {
        EXPECT_NO_THROW((void)kiln::active_backend());
    }
}

// Without a device, asking for one is a NoDevice that says why; with devices, an index past the
// last one is an Error that gives the valid range.
TEST(Device, MissingDeviceOrBadIndexIsAClearError) {
    const int count = kiln::device_count();
    if (count == 0) {
        EXPECT_FALSE(kiln::no_device_reason().empty());
        if (!kiln::compiled_backends().empty()) {
            EXPECT_THROW((void)kiln::current_stream(), kiln::NoDevice);
            EXPECT_THROW(kiln::Stream{}, kiln::NoDevice);
        }
        try {
            kiln::Device device;
            FAIL() << "expected kiln::NoDevice";
        } catch (const kiln::NoDevice& e) {
            EXPECT_NE(std::string(e.what()).find("no device"), std::string::npos) << e.what();
        }
        return;
    }
    try {
        kiln::Device device(count);
        FAIL() << "expected kiln::Error";
    } catch (const kiln::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("device index " + std::to_string(count) + " is out of range"),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("0.." + std::to_string(count - 1)), std::string::npos) << what;
    }
    EXPECT_THROW(kiln::Device(-1), kiln::Error);
}

// The reason names what was missing: the backend, the vendor call that found no device, or the
// host backend's compiler.
TEST(Backend, NoDeviceReasonSaysWhatWasMissing) {
    const std::string reason = kiln::no_device_reason();
    if (kiln::compiled_backends().empty()) {
        EXPECT_EQ(kiln::device_count(), 0);
        EXPECT_NE(reason.find("no backend"), std::string::npos) << reason;
    } else if (kiln::device_count() == 0) {
        EXPECT_TRUE(reason.find("GetDeviceCount") != std::string::npos ||
                    reason.find("C++ compiler") != std::string::npos)
            << reason;
    } else if (kiln::active_backend() != kiln::BackendKind::host) {
        EXPECT_EQ(reason, "");
    }
}

// With the host backend running the kernels, the reason says why no GPU does: each GPU backend's
// own reason, or that none was compiled in, or that KILN_BACKEND asked for the host.
TEST(Backend, HostBackendSaysWhyNoGpuRunsTheKernels) {
    if (kiln::compiled_backends().empty() || kiln::device_count() == 0 ||
        kiln::active_backend() != kiln::BackendKind::host) {
        GTEST_SKIP() << "the host backend is not running the kernels here";
    }
    const std::string reason = kiln::no_device_reason();
    if (std::getenv("KILN_BACKEND") != nullptr) {  // NOLINT(concurrency-mt-unsafe): read only
        EXPECT_EQ(reason, "KILN_BACKEND=host asks for the host backend");
        return;
    }
    std::vector<std::string> gpu_backends;
    for (auto kind : kiln::compiled_backends()) {
        if (kind != kiln::BackendKind::host) {
            gpu_backends.emplace_back(kiln::to_string(kind));
        }
    }
    if (gpu_backends.empty()) {
        EXPECT_EQ(reason, "this build of kiln has no GPU backend; running on the host backend");
        return;
    }
    EXPECT_TRUE(reason.starts_with("no GPU backend found a device: " + gpu_backends.front() + ": "))
        << reason;
    for (const auto& name : gpu_backends) {
        EXPECT_NE(reason.find(name + ": "), std::string::npos) << name << " in " << reason;
    }
    EXPECT_TRUE(reason.ends_with("; running on the host backend")) << reason;
}

}  // namespace
