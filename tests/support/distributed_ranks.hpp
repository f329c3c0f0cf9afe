// What the in-process tests of kiln::distributed share: two ranks on devices 0 and 1, and the
// skip, saying why, without two devices or without the library of collectives.
#pragma once

#include "tests/support/backend_under_test.hpp"

#include <kiln/kiln.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace kiln::test {

// Empty when the library of collectives loads, else why it does not.
inline std::string collectives_missing() {
    try {
        (void)distributed::Communicator::unique_id();
        return "";
    } catch (const NoDevice& e) {
        return e.what();
    }
}

// Ranks 0 and 1 of one communicator, on devices 0 and 1.
inline distributed::Communicators two_ranks() {
    return std::make_shared<const std::vector<distributed::Communicator>>(
        distributed::Communicator::create_all({0, 1}));
}

}  // namespace kiln::test

#define KILN_REQUIRE_TWO_RANKS()                                                   \
    KILN_REQUIRE_TWO_DEVICES();                                                    \
    if (const std::string why = ::kiln::test::collectives_missing(); !why.empty()) \
    GTEST_SKIP() << why
