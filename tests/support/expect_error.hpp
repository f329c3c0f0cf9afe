// A test assertion: a call throws a given exception type with exactly a given message.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace kiln::test {

// Runs `call`, which must throw Exception with exactly `message`.
template <typename Exception, typename Call>
void expect_error(Call call, const std::string& message) {
    try {
        call();
        ADD_FAILURE() << "no exception; expected: " << message;
    } catch (const Exception& e) {
        EXPECT_EQ(std::string(e.what()), message);
    }
}

}  // namespace kiln::test
