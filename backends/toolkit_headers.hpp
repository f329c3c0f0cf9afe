// Finding a GPU toolkit's include directory at run time, so that run-time compiled sources can
// include the vendor's headers. Shared by CUDA and HIP; each describes where its toolkit keeps
// them in backends/<vendor>/toolkit_headers.cpp.
#pragma once

#include "../core/backend.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::detail {

// Where one vendor's toolkit keeps its headers, in the order they are searched.
struct ToolkitLayout {
    // Set to a ':'-separated list of include directories, it replaces the search below.
    std::string override_variable;
    // A header that every include directory of the toolkit holds.
    std::string marker;
    // Relative to the directory of the compiler library in use: the toolkit it came with.
    std::vector<std::string> beside_library;
    // Environment variables that name a toolkit root, and the include directories under a root.
    std::vector<std::string> root_variables;
    std::vector<std::string> under_root;
    // The standard places, last.
    std::vector<std::string> standard;
    // Directories under the include directory that hold more headers (CUDA 13's cccl/ for CUB,
    // Thrust and libcu++), passed after it when present.
    std::vector<std::string> nested;
};

// The first candidate holding `layout.marker`, as -I options with its nested directories, and
// every candidate looked at (normalized, each once). `library` is the compiler library's file;
// empty when unknown.
[[nodiscard]] ToolkitHeaders find_toolkit_headers(const ToolkitLayout& layout,
                                                  const std::filesystem::path& library);

// Whether a compiler log reports an #include it could not open (NVRTC's and clang's wording).
[[nodiscard]] bool reports_missing_header(std::string_view log);

}  // namespace kiln::detail
