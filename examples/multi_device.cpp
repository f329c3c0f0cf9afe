// Several devices in one process: the sum of squares of 0..n-1 split in halves, one per device,
// each half reduced on its own device and the partial sums brought to device 0. Checked against
// the closed form n(n-1)(2n-1)/6. Needs two devices: on a machine without two GPUs, run it on the
// host backend with two host devices (KILN_BACKEND=host KILN_HOST_DEVICES=2).
#include <kiln/kiln.hpp>

#include <cstdint>
#include <iomanip>
#include <iostream>

int main() {
    try {
        if (kiln::device_count() < 2) {
            std::cout << "needs two devices, found " << kiln::device_count()
                      << " (on the host backend: KILN_HOST_DEVICES=2)\n";
            return 77;  // ctest's SKIP_RETURN_CODE
        }
        const kiln::Device first(0);
        const kiln::Device second(1);
        if (second.can_access_peer(first)) {
            second.enable_peer_access(first);  // copies then go device to device
        }

        const std::int64_t n = 1 << 16;  // every partial sum is an integer below 2^53: exact
        const std::int64_t half = n / 2;
        const kiln::ndarray x = kiln::arange(0.0, static_cast<double>(n), 1.0);  // on device 0
        const kiln::ndarray low = x[{kiln::Slice{.stop = half}}];
        const kiln::ndarray high = x[{kiln::Slice{.start = half}}].to_device(second);

        // Each reduction runs on the device of its array, whatever device is current.
        const kiln::ndarray low_sum = kiln::sum(low * low);
        kiln::ndarray high_sum;
        {
            const kiln::DeviceGuard on{second};  // CuPy's `with Device(1):`
            high_sum = kiln::sum(high * high);
        }
        std::cout << "partial sums on devices " << low_sum.device() << " and " << high_sum.device()
                  << '\n';
        const double total = (low_sum + high_sum.to_device(first)).item<double>();

        const auto m = static_cast<double>(n);
        const double want = m * (m - 1) * (2 * m - 1) / 6;
        std::cout << std::setprecision(17) << "sum of squares: " << total << '\n';
        if (total != want) {
            std::cout << "MISMATCH: expected " << want << '\n';
            return 1;
        }
        return 0;
    } catch (const kiln::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
