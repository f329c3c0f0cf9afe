// libkiln links no vendor library, and a program linked with it starts, and says why, with each
// vendor library hidden in turn: the probe runs with KILN_VENDOR_LIBRARY_PATH naming a directory
// of links to every library file but one, so kiln's real search finds all the others.
#include "tests/support/temporary_directory.hpp"

#include <kiln/backend.hpp>
#include <kiln/config.hpp>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>  // NOLINT(modernize-deprecated-headers): popen is POSIX

#include <algorithm>
#include <array>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The command's standard output and error.
std::string run(const std::string& command) {
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    EXPECT_NE(pipe, nullptr) << command;
    if (pipe == nullptr) {
        return "";
    }
    std::string out;
    std::array<char, 4096> buffer{};
    for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) {
        out.append(buffer.data(), n);
    }
    EXPECT_EQ(pclose(pipe), 0) << command << "\n" << out;
    return out;
}

// The libkiln this process loaded: the build's, or the GPU bundle's (ci/gpu.sh).
std::string libkiln_path() {
    std::string path;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            const std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
            if (fs::path(name).filename().string().starts_with("libkiln.so")) {
                *static_cast<std::string*>(data) = name;
                return 1;
            }
            return 0;
        },
        &path);
    return path;
}

// The probe: built beside this test; in the GPU bundle (ci/gpu.sh) in ../bin.
fs::path probe_path() {
    const fs::path here = fs::read_symlink("/proc/self/exe").parent_path();
    const fs::path beside = here / "kiln-loader-probe";
    return fs::exists(beside) ? beside : here.parent_path() / "bin" / "kiln-loader-probe";
}

// The probe's output with KILN_VENDOR_LIBRARY_PATH set to `path` (unset when empty) and
// KILN_BACKEND to `backend` (unset when empty). These tests are about the GPU backends' vendor
// libraries, so the host backend is kept out of the choice: its compiler is named as missing.
std::string probe(const std::string& path, const std::string& backend = "") {
    const fs::path probe = probe_path();
    std::string command =
        "env -u KILN_VENDOR_LIBRARY_PATH -u KILN_BACKEND KILN_HOST_CXX=/nonexistent/kiln-c++";
    command += path.empty() ? "" : " KILN_VENDOR_LIBRARY_PATH='" + path + "'";
    command += backend.empty() ? "" : " KILN_BACKEND=" + backend;
    return run(command + " '" + probe.string() + "'");
}

// The value of the probe's line that starts with `key`.
std::string line(const std::string& output, const std::string& key) {
    std::istringstream lines(output);
    for (std::string text; std::getline(lines, text);) {
        if (text.starts_with(key)) {
            return text.substr(key.size());
        }
    }
    return "";
}

struct Library {
    std::string backend;
    std::string name;  // "NVRTC"
    std::string path;  // the file the default search loaded
};

// Every vendor library of every compiled backend, where kiln's default search finds it.
std::vector<Library> default_libraries() {
    std::vector<Library> libraries;
    for (auto kind : kiln::compiled_backends()) {
        if (kind == kiln::BackendKind::host) {
            continue;  // no vendor library: its compiler is the system's
        }
        const std::string backend(kiln::to_string(kind));
        std::istringstream lines(probe("", backend));
        for (std::string text; std::getline(lines, text);) {
            if (const auto colon = text.find(": "); text.starts_with("library ")) {
                libraries.push_back({backend, text.substr(8, colon - 8), text.substr(colon + 2)});
            }
        }
    }
    return libraries;
}

// A fresh directory holding a link to each file in `files`, removed afterwards.
class LinkDirectory {
public:
    explicit LinkDirectory(const std::set<std::string>& files) {
        for (const auto& file : files) {
            fs::create_symlink(file, dir_.path() / fs::path(file).filename());
        }
    }

    [[nodiscard]] std::string path() const { return dir_.path().string(); }

private:
    kiln::test::TemporaryDirectory dir_{"kiln-vendor-"};
};

class VendorLibraries : public testing::Test {
protected:
    void SetUp() override {
        libraries_ = default_libraries();
        ASSERT_FALSE(libraries_.empty()) << "the probe listed no vendor library";
        for (const auto& library : libraries_) {
            if (library.path == "not found") {
                GTEST_SKIP() << "this machine lacks " << library.name << " for the "
                             << library.backend << " backend: " << probe("", library.backend);
            }
            files_.insert(library.path);
        }
    }

    std::vector<Library> libraries_;
    std::set<std::string> files_;
};

TEST(Libkiln, LinksNoVendorLibrary) {
    const std::string libkiln = libkiln_path();
    ASSERT_FALSE(libkiln.empty()) << "libkiln is not loaded in this process";
    const std::string ldd = run("ldd '" + libkiln + "'");
    ASSERT_TRUE(contains(ldd, "libc.so.6")) << ldd;
    for (const char* vendor :
         {"nvrtc", "libcuda", "cudart", "amdhip64", "hiprtc", "amd_comgr", "hsa-runtime"}) {
        EXPECT_FALSE(contains(ldd, vendor)) << vendor << " in\n" << ldd;
    }
}

// On a machine without an NVIDIA driver the CUDA runtime says the driver is insufficient; kiln's
// reason says that there is none.
TEST(Libkiln, MissingNvidiaDriverIsNamed) {
    if (KILN_HAS_CUDA == 0) {
        GTEST_SKIP() << "this build has no CUDA backend";
    }
    if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL); driver != nullptr) {
        dlclose(driver);
        GTEST_SKIP() << "this machine has an NVIDIA driver (libcuda.so.1)";
    }
    const std::string output = probe("", "cuda");
    if (line(output, "library NVRTC: ") == "not found") {
        GTEST_SKIP() << "this machine lacks NVRTC, which the CUDA backend loads first: " << output;
    }
    EXPECT_EQ(line(output, "no device: "),
              "cudaGetDeviceCount: no NVIDIA driver found (libcuda.so.1 could not be loaded)")
        << output;
}

// The control: the same mechanism with nothing hidden finds every library in the directory.
TEST_F(VendorLibraries, DirectoryWithEveryLibraryFindsThemAll) {
    const LinkDirectory dir(files_);
    const std::string output = probe(dir.path());
    for (const auto& library : libraries_) {
        if (line(output, "backend: ") == library.backend) {
            EXPECT_EQ(line(output, "library " + library.name + ": "),
                      dir.path() + "/" + fs::path(library.path).filename().string())
                << output;
        }
    }
    // The optional library of collectives is not in the directory: only the backend's are.
    EXPECT_FALSE(contains(line(output, "no device: "), "was not found")) << output;
    EXPECT_TRUE(contains(output, "compiled for ")) << output;
}

// NCCL and RCCL are optional: a directory holding only the libraries a backend needs leaves it
// usable, and a communicator then names the missing library and where kiln looked.
TEST_F(VendorLibraries, MissingCollectivesLibraryIsNamedByTheCommunicator) {
    const LinkDirectory dir(files_);
    for (const auto kind : kiln::compiled_backends()) {
        if (kind == kiln::BackendKind::host) {
            continue;  // it loads no library of collectives
        }
        const std::string backend(kiln::to_string(kind));
        SCOPED_TRACE("backend: " + backend);
        const std::string output = probe(dir.path(), backend);
        // HIP's NVIDIA platform uses NCCL itself.
        const bool nccl = kind == kiln::BackendKind::cuda || KILN_HIP_NVIDIA != 0;
        const std::string library = nccl ? "NCCL" : "RCCL";
        const std::string file = nccl ? "libnccl.so.2" : "librccl.so.1";
        EXPECT_TRUE(contains(output, "compiled for ")) << output;
        const std::string communicator = line(output, "communicator: ");
        EXPECT_TRUE(contains(communicator, "kiln: Communicator: " + library +
                                               " was not found: kiln looked for " + file))
            << output;
        EXPECT_TRUE(contains(communicator, dir.path() + " (from KILN_VENDOR_LIBRARY_PATH)"))
            << output;
    }
}

// The reason names every library the hidden file stood for, unless the backend in use sees a
// device (then there is no reason to give: an `all` build on a GPU machine with the other
// vendor's library hidden).
TEST_F(VendorLibraries, EachHiddenLibraryIsNamedAndABackendWithoutItStillCompiles) {
    for (const auto& hidden : files_) {
        SCOPED_TRACE("hidden: " + hidden);
        std::set<std::string> others = files_;
        others.erase(hidden);
        const LinkDirectory dir(others);
        const std::string output = probe(dir.path());
        const std::string reason = line(output, "no device: ");

        std::set<std::string> unusable;  // backends that need the hidden file
        for (const auto& library : libraries_) {
            if (library.path == hidden) {
                unusable.insert(library.backend);
                EXPECT_TRUE(reason.empty() || contains(reason, library.name + " was not found"))
                    << output;
            }
        }
        if (!reason.empty()) {
            EXPECT_TRUE(contains(reason, fs::path(hidden).filename().string())) << output;
            EXPECT_TRUE(contains(reason, dir.path() + " (from KILN_VENDOR_LIBRARY_PATH)"))
                << output;
        }

        const auto usable =
            std::find_if(libraries_.begin(), libraries_.end(),
                         [&](const Library& l) { return unusable.count(l.backend) == 0; });
        if (usable != libraries_.end()) {
            EXPECT_EQ(line(output, "backend: "), usable->backend) << output;
            EXPECT_TRUE(contains(output, "compiled for ")) << output;
        } else {
            EXPECT_FALSE(reason.empty()) << output;
            EXPECT_TRUE(contains(line(output, "cannot compile: "), "was not found")) << output;
        }
    }
}

}  // namespace
