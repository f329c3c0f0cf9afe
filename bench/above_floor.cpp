#include "above_floor.hpp"

#include "driver_launch.hpp"
#include "kernels.hpp"
#include "timing.hpp"

#include <kiln/device.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/raw_module.hpp>
#include <kiln/stream.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>

namespace kiln::bench {

namespace {

constexpr int calls_per_batch = 100;
constexpr int warmup_pairs = 20;
constexpr int pairs = 300;
constexpr int elements = 1000;
constexpr unsigned block = 256;

// The bare launch of add_raw on 1000 float32 elements (launch_floor_driver's), made once.
class Floor {
public:
    Floor()
        : x_(zeros({elements}, float32)),
          y_(zeros({elements}, float32)),
          z_(zeros({elements}, float32)),
          launch_(active_backend(),
                  RawModule(kernels::add_raw.code).compile(Device::current().properties().arch),
                  kernels::add_raw.name),
          x_data_(x_.data()),
          y_data_(y_.data()),
          z_data_(z_.data()) {}
    // Its launch arguments point into it.
    Floor(const Floor&) = delete;
    Floor& operator=(const Floor&) = delete;
    Floor(Floor&&) = delete;
    Floor& operator=(Floor&&) = delete;
    ~Floor() = default;

    void operator()() const {
        launch_(Dim3{(elements + block - 1) / block}, Dim3{block}, args_.data(), current_stream());
    }

private:
    ndarray x_;
    ndarray y_;
    ndarray z_;
    DriverLaunch launch_;
    const void* x_data_;
    const void* y_data_;
    void* z_data_;
    int count_ = elements;
    mutable std::array<void*, 4> args_{&x_data_, &y_data_, &z_data_, &count_};
};

// Microseconds per call of calls_per_batch calls of `call`, from an idle stream.
template <class Call>
double batch_us(const Call& call) {
    synchronize(current_stream());
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls_per_batch; ++i) {
        call();
    }
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    return took.count() / calls_per_batch;
}

double percentile(std::vector<double> values, double p) {
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1))];
}

}  // namespace

std::optional<AboveFloor> above_floor(const Context& context, const std::function<void()>& call) {
    if (context.host || !context.gpu) {
        return std::nullopt;
    }
    // Never destroyed: its arrays would go back to the pool after the backend has gone.
    static const Floor* const floor = new Floor();
    std::vector<double> floors;
    std::vector<double> above;
    for (int pair = 0; pair < warmup_pairs + pairs; ++pair) {
        // Each goes first in half the pairs.
        double floor_us = 0;
        double path_us = 0;
        if (pair % 2 == 0) {
            floor_us = batch_us(*floor);
            path_us = batch_us(call);
        } else {
            path_us = batch_us(call);
            floor_us = batch_us(*floor);
        }
        if (pair >= warmup_pairs) {
            floors.push_back(floor_us);
            above.push_back(path_us - floor_us);
        }
    }
    synchronize(current_stream());
    return AboveFloor{median(floors), median(above), percentile(above, 0.25),
                      percentile(above, 0.75), pairs};
}

void store(Record& record, const AboveFloor& figures) {
    record.params["host_us_above_floor"] = figures.above_us;
    record.params["host_us_above_floor_p25"] = figures.above_p25_us;
    record.params["host_us_above_floor_p75"] = figures.above_p75_us;
    record.params["host_us_floor_paired"] = figures.floor_us;
    std::array<char, 160> text{};
    (void)std::snprintf(text.data(), text.size(),
                        "host us above the driver floor, %d pairs of %d calls: median %.3f "
                        "(p25 %.3f, p75 %.3f); floor %.3f",
                        figures.pairs, calls_per_batch, figures.above_us, figures.above_p25_us,
                        figures.above_p75_us, figures.floor_us);
    record.note = text.data();
}

}  // namespace kiln::bench
