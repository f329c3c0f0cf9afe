// Host time above the driver's launch floor, measured in pairs: short batches of a launch path
// and of the bare driver launch (driver_launch.hpp) by turns, each pair's difference taken. A
// shared GPU host's drift moves a whole row by up to a microsecond between runs (docs/perf.md),
// far more than the 0.5 us the host-time goal allows above the floor; in pairs it falls on both.
#pragma once

#include "context.hpp"
#include "record.hpp"

#include <functional>
#include <optional>

namespace kiln::bench {

struct AboveFloor {
    double floor_us = 0;  // median per call of the driver's batches
    double above_us = 0;  // median over the pairs of the path's time less the floor's, per call
    double above_p25_us = 0;
    double above_p75_us = 0;
    int pairs = 0;
};

// `call` (one launch of the path, on the current stream) against the floor; nothing on the host
// backend, which has no driver.
[[nodiscard]] std::optional<AboveFloor> above_floor(const Context& context,
                                                    const std::function<void()>& call);

// Puts the figures into `record`'s params and note.
void store(Record& record, const AboveFloor& figures);

}  // namespace kiln::bench
