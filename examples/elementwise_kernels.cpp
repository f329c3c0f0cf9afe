// kiln-demo: two ElementwiseKernels compiled at run time, a clipped ReLU and a squared difference
// against a broadcast row, on the best backend found (a GPU, or this machine's CPU through the
// host backend, saying why no GPU ran them). Both are checked against loops on the host.
#include <kiln/kiln.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <vector>

namespace {

// Prints the first element that differs from the host's value.
bool agrees(const char* what, const std::vector<float>& got, const std::vector<float>& want) {
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (got[i] != want[i]) {
            std::cout << what << ": MISMATCH at " << i << ": expected " << want[i] << ", got "
                      << got[i] << '\n';
            return false;
        }
    }
    std::cout << what << ": " << want.size() << " values agree with the host\n";
    return true;
}

}  // namespace

int main() {
    try {
        std::cout << "kiln " << KILN_VERSION << '\n';
        if (kiln::device_count() == 0) {
            std::cout << "no device: " << kiln::no_device_reason() << '\n';
            return 1;
        }
        std::cout << "backend: " << kiln::to_string(kiln::active_backend())
                  << ", device 0: " << kiln::Device(0).properties().name << '\n';
        if (!kiln::no_device_reason().empty()) {
            std::cout << "(" << kiln::no_device_reason() << ")\n";
        }

        const std::int64_t rows = 300;
        const std::int64_t columns = 200;
        const kiln::ndarray x =
            kiln::random::normal({rows, columns}, 0.0, 2.0, /*seed=*/7).astype(kiln::float32);
        const kiln::ndarray row =
            kiln::arange(0.0, static_cast<double>(columns), 1.0, kiln::float32) * 0.01F;

        // min(max(x, 0), cap): the ReLU clipped at a scalar argument.
        const kiln::ElementwiseKernel clipped_relu("T x, T cap", "T y",
                                                   "y = min(max(x, T(0)), cap)", "clipped_relu");
        const kiln::ndarray relu = clipped_relu({x, 1.5F});

        // (x - r)^2, the row broadcast over every row of x.
        const kiln::ElementwiseKernel squared_diff("T x, T r", "T z", "z = (x - r) * (x - r)",
                                                   "squared_diff");
        const kiln::ndarray diff = squared_diff({x, row});

        const std::vector<float> hx = x.get<float>();
        const std::vector<float> hrow = row.get<float>();
        std::vector<float> want_relu(hx.size());
        std::vector<float> want_diff(hx.size());
        for (std::size_t i = 0; i < hx.size(); ++i) {
            want_relu[i] = std::min(std::max(hx[i], 0.0F), 1.5F);
            const float d = hx[i] - hrow[i % columns];
            want_diff[i] = d * d;
        }
        bool ok = agrees("clipped_relu", relu.get<float>(), want_relu);
        ok = agrees("squared_diff", diff.get<float>(), want_diff) && ok;
        return ok ? 0 : 1;
    } catch (const kiln::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
