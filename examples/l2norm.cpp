// The l2 norm as one ReductionKernel, along each axis of a matrix and over both, checked against
// sums on the host.
#include <kiln/kiln.hpp>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <vector>

namespace {

// Compares within a relative 1e-12; prints the first mismatch.
bool agrees(const char* what, const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) {
        std::cout << what << ": MISMATCH: expected " << want.size() << " norms, got " << got.size()
                  << '\n';
        return false;
    }
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (std::abs(got[i] - want[i]) > 1e-12 * want[i]) {
            std::cout << what << ": MISMATCH at " << i << ": expected " << want[i] << ", got "
                      << got[i] << '\n';
            return false;
        }
    }
    std::cout << what << ": " << want.size() << " norms agree with the host\n";
    return true;
}

}  // namespace

int main() {
    try {
        const std::int64_t rows = 500;
        const std::int64_t columns = 300;
        // 0, 1, 2, ... in C order.
        const kiln::ndarray x =
            kiln::arange(0.0, static_cast<double>(rows * columns), 1.0).reshape({rows, columns});

        const kiln::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0",
                                           "l2norm");
        const kiln::ndarray per_row = l2norm({x}, {.axis = 1});
        const kiln::ndarray per_column = l2norm({x}, {.axis = 0});
        const kiln::ndarray whole = l2norm({x}, {.axis = {0, 1}, .keepdims = true});

        std::vector<double> row_sums(rows, 0.0);
        std::vector<double> column_sums(columns, 0.0);
        double total = 0.0;
        for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t c = 0; c < columns; ++c) {
                const auto v = static_cast<double>(r * columns + c);
                row_sums[r] += v * v;
                column_sums[c] += v * v;
                total += v * v;
            }
        }
        for (double& s : row_sums) {
            s = std::sqrt(s);
        }
        for (double& s : column_sums) {
            s = std::sqrt(s);
        }

        bool ok = agrees("axis 1", per_row.get<double>(), row_sums);
        ok = agrees("axis 0", per_column.get<double>(), column_sums) && ok;
        ok = agrees("axes (0, 1)", whole.get<double>(), {std::sqrt(total)}) && ok;
        if (whole.shape() != kiln::Shape{1, 1}) {
            std::cout << "axes (0, 1) with keepdims: MISMATCH: expected shape (1, 1)\n";
            ok = false;
        }
        return ok ? 0 : 1;
    } catch (const kiln::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
