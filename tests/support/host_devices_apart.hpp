// Two host devices declared unable to reach each other's memory, for the tests of what kiln does
// then (refusals, copies staged by the driver).
#pragma once

#include <cstdlib>

namespace kiln::test {

// While in scope the two host devices cannot reach each other's memory. GPUs answer for
// themselves, so elsewhere this changes nothing.
class HostDevicesApart {
public:
    HostDevicesApart() {
        setenv("KILN_HOST_PEER_ACCESS", "0", 1);  // NOLINT(concurrency-mt-unsafe)
    }
    ~HostDevicesApart() {
        unsetenv("KILN_HOST_PEER_ACCESS");  // NOLINT(concurrency-mt-unsafe)
    }
    HostDevicesApart(const HostDevicesApart&) = delete;
    HostDevicesApart& operator=(const HostDevicesApart&) = delete;
    HostDevicesApart(HostDevicesApart&&) = delete;
    HostDevicesApart& operator=(HostDevicesApart&&) = delete;
};

}  // namespace kiln::test
