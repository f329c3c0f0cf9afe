// Test assertions: a call throws a given exception type with exactly a given message, or a
// kiln::Error whose message names some parts.
#pragma once

#include <kiln/error.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
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

// Runs `call`, which must throw kiln::Error whose message names every one of `parts`.
inline void expect_error_naming(const std::function<void()>& call,
                                std::initializer_list<std::string> parts) {
    try {
        call();
        ADD_FAILURE() << "no exception";
    } catch (const kiln::Error& e) {
        for (const auto& part : parts) {
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
                << "'" << part << "' not in: " << e.what();
        }
    }
}

}  // namespace kiln::test
