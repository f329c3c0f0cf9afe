// The version macros and kiln::version() against the project's version in CMakeLists.txt.
#include <kiln/version.hpp>

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Version, MacrosSpellTheProjectVersion) {
    EXPECT_STREQ(KILN_VERSION, KILN_PROJECT_VERSION);
    const std::string numbers = std::to_string(KILN_VERSION_MAJOR) + '.' +
                                std::to_string(KILN_VERSION_MINOR) + '.' +
                                std::to_string(KILN_VERSION_PATCH);
    EXPECT_EQ(numbers, KILN_PROJECT_VERSION);
}

TEST(Version, LibraryReportsItsVersion) {
    EXPECT_EQ(kiln::version(), KILN_PROJECT_VERSION);
}

}  // namespace
