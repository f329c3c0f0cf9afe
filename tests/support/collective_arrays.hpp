// Device arrays of collective_values.hpp's values, and the check of a result against the host's
// values, for the communicator tests.
#pragma once

#include "tests/support/collective_values.hpp"

#include <kiln/ndarray.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>

namespace kiln::test {

// Rank `rank`'s `n` values on the current device, in `shape` (default: (n,)).
template <class T>
ndarray device_values(int rank, std::size_t n, const std::optional<Shape>& shape = std::nullopt) {
    const auto values = rank_values<T>(n, rank);
    if constexpr (std::is_same_v<T, bool>) {
        const auto buffer = std::make_unique<bool[]>(n);  // NOLINT(*-avoid-c-arrays)
        std::copy(values.begin(), values.end(), buffer.get());
        return array(std::span<const bool>(buffer.get(), n), shape);
    } else {
        return array(std::span<const T>(values), shape);
    }
}

// `array` holds `n` elements, element i equal to expected(i); reports at most five that differ.
template <class T, class Expected>
void expect_elements(const ndarray& array, std::size_t n, Expected expected,
                     const std::string& what) {
    const auto got = array.get<T>();
    ASSERT_EQ(got.size(), n) << what;
    int wrong = 0;
    for (std::size_t i = 0; i < n && wrong < 5; ++i) {
        if (!same<T>(got[i], expected(i))) {
            ADD_FAILURE() << what << ": element " << i << " differs";
            ++wrong;
        }
    }
}

}  // namespace kiln::test
