// The Kokkos CPU reference toolchain: checked against closed forms, so later reference
// comparisons rest on a Kokkos that computes correctly here.
#include <Kokkos_Core.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

namespace {

class Kokkos_ : public testing::Environment {
public:
    void SetUp() override {
        Kokkos::initialize();
        std::cout << "[ kokkos   ] " << Kokkos::DefaultHostExecutionSpace::name() << ", "
                  << Kokkos::DefaultHostExecutionSpace::concurrency() << " thread(s)\n";
    }
    void TearDown() override { Kokkos::finalize(); }
};

const auto* const environment = testing::AddGlobalTestEnvironment(new Kokkos_);

using Space = Kokkos::DefaultHostExecutionSpace;

TEST(Kokkos, SumOfSquaresMatchesTheClosedForm) {
    const std::int64_t n = 1'000'000;
    std::int64_t sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::RangePolicy<Space>(1, n + 1),
        [](std::int64_t i, std::int64_t& acc) { acc += i * i; }, sum);
    EXPECT_EQ(sum, n * (n + 1) * (2 * n + 1) / 6);
}

TEST(Kokkos, ParallelForFillsAViewElementwise) {
    const int n = 4097;
    Kokkos::View<double*, Space> x("x", n);
    Kokkos::parallel_for(Kokkos::RangePolicy<Space>(0, n), [=](int i) { x(i) = 0.5 * i + 1.0; });
    double total = 0.0;
    Kokkos::parallel_reduce(
        Kokkos::RangePolicy<Space>(0, n), [=](int i, double& acc) { acc += x(i); }, total);
    EXPECT_DOUBLE_EQ(total, 0.5 * (n - 1) * n / 2.0 + n);
    EXPECT_DOUBLE_EQ(x(n - 1), 0.5 * (n - 1) + 1.0);
}

}  // namespace
