// Kernel definitions shared between objects: keys that cannot confuse two definitions, and one
// state per key.
#include "core/kernels/shared_definitions.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace {

using kiln::detail::DefinitionKey;

TEST(DefinitionKey, PartsCannotRunTogether) {
    EXPECT_NE(DefinitionKey().add("ab").add("c").text(), DefinitionKey().add("a").add("bc").text());
    EXPECT_NE(DefinitionKey().add(std::vector<std::string>{"-O3"}).add("").text(),
              DefinitionKey().add(std::vector<std::string>{}).add("-O3").text());
    EXPECT_EQ(DefinitionKey().add("x").add_flag(true).text(),
              DefinitionKey().add("x").add_flag(true).text());
}

TEST(SharedDefinitions, OneStatePerKeyAndNoneKeptOnFailure) {
    kiln::detail::SharedDefinitions<int> shared;
    int made = 0;
    auto make = [&] { return std::make_shared<int>(++made); };
    const auto a = shared.get(DefinitionKey().add("a"), make);
    const auto again = shared.get(DefinitionKey().add("a"), make);
    const auto b = shared.get(DefinitionKey().add("b"), make);
    EXPECT_EQ(a, again);
    EXPECT_EQ(*a, 1);
    EXPECT_EQ(*b, 2);
    EXPECT_THROW(
        (void)shared.get(DefinitionKey().add("c"),
                         []() -> std::shared_ptr<int> { throw std::invalid_argument("bad"); }),
        std::invalid_argument);
    EXPECT_EQ(*shared.get(DefinitionKey().add("c"), make), 3);
}

}  // namespace
