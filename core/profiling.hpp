// Profiler ranges around kiln's own work (pool growth, copies, synchronizations, launches), shown
// by Nsight Systems and other NVTX tools. Off unless KILN_PROFILE is set.
#pragma once

namespace kiln::detail {

[[nodiscard]] bool profiling_enabled() noexcept;

// A range open for the lifetime of the object. `name` must outlive it (use string literals).
class ProfileRange {
public:
    explicit ProfileRange(const char* name) noexcept;
    ~ProfileRange();
    ProfileRange(const ProfileRange&) = delete;
    ProfileRange& operator=(const ProfileRange&) = delete;
    ProfileRange(ProfileRange&&) = delete;
    ProfileRange& operator=(ProfileRange&&) = delete;

private:
    bool open_ = false;
};

}  // namespace kiln::detail
