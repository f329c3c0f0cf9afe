#include "core/env.hpp"

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using kiln::detail::env::get;
using kiln::detail::env::parse_index;

TEST(Env, UnsetAndEmptyAreBothAbsent) {
    unsetenv("KILN_TEST_VARIABLE");
    EXPECT_FALSE(get("KILN_TEST_VARIABLE").has_value());
    setenv("KILN_TEST_VARIABLE", "", 1);
    EXPECT_FALSE(get("KILN_TEST_VARIABLE").has_value());
    setenv("KILN_TEST_VARIABLE", "cuda", 1);
    EXPECT_EQ(get("KILN_TEST_VARIABLE"), "cuda");
    unsetenv("KILN_TEST_VARIABLE");
}

TEST(Env, IndexParses) {
    EXPECT_EQ(parse_index("KILN_DEVICE", "0"), 0);
    EXPECT_EQ(parse_index("KILN_DEVICE", "7"), 7);
    EXPECT_EQ(parse_index("KILN_DEVICE", "2147483647"), 2147483647);
}

TEST(Env, BadIndexNamesTheVariableAndTheText) {
    for (const char* text : {"-1", "abc", "3x", " 1", "1.5", "2147483648", ""}) {
        try {
            (void)parse_index("KILN_DEVICE", text);
            ADD_FAILURE() << "accepted '" << text << "'";
        } catch (const kiln::Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(std::string("KILN_DEVICE='") + text + "'"), std::string::npos)
                << what;
            EXPECT_NE(what.find("non-negative integer"), std::string::npos) << what;
        }
    }
}

}  // namespace
