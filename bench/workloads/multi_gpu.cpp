// Rows that need two devices, each beside its baseline in the same run: a copy of 64 MiB and
// 1 GiB from device 0 to device 1 through kiln (copyto into an array on device 1, and to_device)
// beside the vendor's own peer copy of the same bytes; the seeds' MSE of 2e8 float64 with half of
// each input on each device beside the whole on one; and an all_reduce over the two devices of
// this process through kiln's communicators beside NCCL called directly on the same
// communicators; the seeds' MSE on DistributedArrays over the two devices beside the same
// routines on one; and Jacobi iterations with ghost rows over the two devices beside one. The
// host backend runs the first two too with KILN_HOST_DEVICES=2 (devices that
// share the CPU), which checks that they work.
#include "../check.hpp"
#include "../inputs.hpp"
#include "../kernels.hpp"
#include "../peer_copy.hpp"
#include "../reference/reductions.hpp"
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/backend.hpp>
#include <kiln/device.hpp>
#include <kiln/event.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/operators.hpp>
#include <kiln/reductions.hpp>
#include <kiln/stream.hpp>

#include <kiln/config.hpp>
#include <kiln/distributed/array.hpp>
#include <kiln/distributed/array_halo.hpp>
#include <kiln/distributed/array_reductions.hpp>
#include <kiln/distributed/array_shardwise.hpp>
#include <kiln/distributed/communicator.hpp>
#include <kiln/distributed/group.hpp>

#include <dlfcn.h>

#include <stdexcept>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

namespace kiln::bench {

namespace {

// Lets each device reach the other's memory where it can, so that copies go device to device
// (CuPy does the same before a copy between devices). Returns whether it could.
bool enable_peer_access(const Device& a, const Device& b) {
    const bool peers = a.can_access_peer(b) && b.can_access_peer(a);
    if (peers) {
        a.enable_peer_access(b);
        b.enable_peer_access(a);
    }
    return peers;
}

Stream stream_on(const Device& device) {
    const DeviceGuard on(device);
    return Stream(true);
}

// A stream of its own on `device`, current there while this lives, as the bench's own stream is
// on device 0.
struct DeviceStream {
    explicit DeviceStream(const Device& device) : stream(stream_on(device)), current(stream) {}
    Stream stream;
    StreamGuard current;
};

std::string format(const char* pattern, double a, double b) {
    std::array<char, 160> text{};
    (void)std::snprintf(text.data(), text.size(), pattern, a, b);
    return text.data();
}

Check same_values(const ndarray& got, const std::vector<float>& want) {
    return check_values(got.get<float>(), want);
}

// Copies of count float32 from device 0 to device 1, three ways, one row each. Sources and
// targets are taken in turn from `pairs` of them, so that a size near the L2 cache's is read
// from memory.
std::vector<Record> peer_copies(const Context& context, std::int64_t nominal_bytes,
                                const PeerCopy& vendor, bool peers) {
    const Device source(0);
    const Device target(1);
    const std::int64_t count = std::max<std::int64_t>(1, context.scaled(nominal_bytes) / 4);
    const int pairs = nominal_bytes < (std::int64_t{256} << 20) ? 2 : 1;
    std::vector<ndarray> sources;
    std::vector<std::vector<float>> wants;
    std::vector<ndarray> targets;
    for (int k = 0; k < pairs; ++k) {
        sources.push_back(
            arange(static_cast<double>(k), static_cast<double>(k + count), 1.0, float32));
        wants.push_back(sources.back().get<float>());
        const DeviceGuard on(target);
        targets.push_back(empty({count}, float32));
    }
    const std::string size = bytes_text(nominal_bytes);
    const auto row = [&](const std::string& name, const std::string& how,
                         const std::string& kernel_class) {
        Record r = make_record(name + size, "copy from device 0 to device 1, " + how, kernel_class,
                               {count}, "float32", "memory");
        name_for_bytes(r, nominal_bytes, 4 * count);
        // The bytes moved, once: GB/s is the link's, as CUDA's p2pBandwidthLatencyTest counts.
        r.bytes = 4.0 * static_cast<double>(count);
        r.params =
            Json::object({{"peer_access", peers}, {"pairs", pairs}, {"vendor", vendor.name()}});
        return r;
    };
    // Each way runs on device 1's current stream and writes into targets set to -1 first, so
    // that its check sees its own copies.
    int turn = 0;
    const auto timed = [&](Record& r, const std::function<void(int)>& copy) {
        const DeviceGuard on(target);
        for (auto& t : targets) {
            t.fill(-1.0);
        }
        turn = 0;
        store(r, time_device(context, [&] { copy(turn++ % pairs); }));
    };
    const auto last = [&] { return (turn - 1) % pairs; };

    Record copyto_row = row("peer_copyto_f32_", "kiln::copyto into an array on device 1", "copyto");
    timed(copyto_row, [&](int k) { copyto(targets[k], sources[k]); });
    copyto_row.check = same_values(targets[last()], wants[last()]);

    Record to_device_row = row("peer_to_device_f32_", "ndarray::to_device(Device(1))", "to_device");
    ndarray moved;
    timed(to_device_row, [&](int k) {
        moved = ndarray();  // back to the pool first, as a loop that drops its copies does
        moved = sources[k].to_device(target);
    });
    to_device_row.check = same_values(moved, wants[last()]);

    Record vendor_row = row("peer_copy_vendor_f32_", "the vendor's " + vendor.name(), "vendor");
    timed(vendor_row, [&](int k) {
        vendor(targets[k].data(), sources[k].data(), sources[k].nbytes(), current_stream());
    });
    vendor_row.check = same_values(targets[last()], wants[last()]);

    const double vendor_gbps = vendor_row.bytes / *vendor_row.gpu_ms / 1e6;
    for (Record* r : {&copyto_row, &to_device_row}) {
        const double percent = *vendor_row.gpu_ms / *r->gpu_ms * 100;
        r->note = vendor.name() +
                  format(" %.1f GB/s: kiln / vendor = %.1f%% (goal >= 95%%)", vendor_gbps, percent);
        r->params["kiln_over_vendor_percent"] = percent;
    }
    return {copyto_row, to_device_row, vendor_row};
}

std::vector<Record> peer_copy_rows(const Context& context) {
    const bool peers = enable_peer_access(Device(0), Device(1));
    const PeerCopy vendor(active_backend(), 1, 0);
    const DeviceStream on_target(Device(1));
    std::vector<Record> rows;
    for (const std::int64_t mib : {64, 1024}) {
        for (auto& r : peer_copies(context, mib << 20, vendor, peers)) {
            rows.push_back(std::move(r));
        }
    }
    return rows;
}

// Times `enqueue`, which queues work on device 0's and device 1's current streams, by events on
// device 0's: device 1's stream waits for each sample's start and device 0's for device 1's end,
// so that a sample spans the work of both.
DeviceTiming time_two_devices(const Context& context, const DeviceStream& second,
                              const std::function<void()>& enqueue) {
    const EventFlags sync_only{.disable_timing = true};
    Event start(sync_only);
    Event end = [&] {
        const DeviceGuard on(Device(second.stream.device()));
        return Event(sync_only);
    }();
    return time_device(context, [&] {
        start.record(current_stream());
        second.stream.wait_event(start);
        enqueue();
        {
            const DeviceGuard on(Device(second.stream.device()));
            end.record(second.stream);
        }
        wait_event(current_stream(), end);
    });
}

// time_two_devices over devices 0 to n - 1: each other device's stream starts after device 0's
// start and device 0's stream ends after each of them.
DeviceTiming time_devices(const Context& context, const std::vector<StreamView>& others,
                          const std::function<void()>& enqueue) {
    const EventFlags sync_only{.disable_timing = true};
    Event start(sync_only);
    std::vector<Event> ends;
    for (const StreamView& other : others) {
        const DeviceGuard on(Device(other.device()));
        ends.emplace_back(sync_only);
    }
    return time_device(context, [&] {
        start.record(current_stream());
        for (const StreamView& other : others) {
            wait_event(other, start);
        }
        enqueue();
        for (std::size_t d = 0; d < others.size(); ++d) {
            const DeviceGuard on(Device(others[d].device()));
            ends[d].record(others[d]);
            wait_event(current_stream(), ends[d]);
        }
    });
}

// Devices 1 to n - 1 each with a stream of its own as its current stream while it lives, as
// time_devices takes them.
class DevicesStreams {
public:
    explicit DevicesStreams(int devices) {
        for (int d = 1; d < devices; ++d) {
            const DeviceGuard on{Device(d)};
            guards_.push_back(std::make_unique<DeviceStream>(Device(d)));
        }
    }
    [[nodiscard]] std::vector<StreamView> others() const {
        std::vector<StreamView> streams;
        for (const auto& guard : guards_) {
            streams.push_back(guard->stream.view());
        }
        return streams;
    }

private:
    std::vector<std::unique_ptr<DeviceStream>> guards_;
};

std::vector<int> first_devices(int devices) {
    std::vector<int> ids(static_cast<std::size_t>(devices));
    std::iota(ids.begin(), ids.end(), 0);
    return ids;
}

// Calls a sample in the MSE rows' second timing.
constexpr int back_to_back = 10;

// `call` back_to_back times in one sample: each call's enqueue overlaps the work of the one
// before, as in a user's loop, where one call's sample also times the host's enqueue before the
// devices start.
std::function<void()> back_to_back_calls(const std::function<void()>& call) {
    return [call] {
        for (int i = 0; i < back_to_back; ++i) {
            call();
        }
    };
}

// The seeds' MSE of 2e8 float64: each device reduces its half (the mse workload's
// ReductionKernel, on its own stream), and device 0 weighs the two means into the whole's; beside
// the same kernel over all of it on device 0.
std::vector<Record> split_mse_rows(const Context& context) {
    const std::int64_t total = std::max<std::int64_t>(2, context.scaled(200'000'000));
    const std::int64_t half = total / 2;
    const Device first(0);
    const Device second(1);
    const bool peers = enable_peer_access(first, second);
    const auto x = uniform_input<double>(context, "x", {total}, 100.0, 141);
    const auto y = uniform_input<double>(context, "y", {total}, 100.0, 142);
    const double want = reference::mean_squared_error(x.host, y.host);
    const DeviceStream on_second(second);
    const ndarray x0 = x.device[{Slice{.stop = half}}];
    const ndarray y0 = y.device[{Slice{.stop = half}}];
    const ndarray x1 = x.device[{Slice{.start = half}}].to_device(second);
    const ndarray y1 = y.device[{Slice{.start = half}}].to_device(second);
    const double w0 = static_cast<double>(half) / static_cast<double>(total);
    const double w1 = static_cast<double>(total - half) / static_cast<double>(total);
    const auto mse = kernels::mse.make();
    const auto combine = kernels::weighted_sum.make();

    Record split = make_record("mse_2dev_f64_2e8",
                               "MSE, half on each of 2 devices: a ReductionKernel each, then "
                               "a weighted sum on device 0 (device 1's mean read by peer access)",
                               "ReductionKernel", {total}, "float64", "memory");
    Record whole = make_record("mse_1dev_f64_2e8", "MSE, all of it on device 0: the same kernel",
                               "ReductionKernel", {total}, "float64", "memory");
    for (Record* r : {&split, &whole}) {
        r->bytes = 16.0 * static_cast<double>(total);
        r->inputs = {x.spec, y.spec};
        r->kernel = kernels::mse.json();
    }
    split.params = Json::object({{"devices", 2}, {"peer_access", peers}, {"half", half}});
    split.params["combine"] = kernels::weighted_sum.json();
    whole.params = Json::object({{"devices", 1}});

    ndarray split_result;
    const auto split_call = [&] {
        ndarray part1;
        {
            const DeviceGuard on(second);
            part1 = mse({x1, y1});
        }
        const ndarray part0 = mse({x0, y0});
        // Device 1's mean is read where it is, through peer access, when the devices allow it.
        split_result = combine({part0, peers ? part1 : part1.to_device(first), w0, w1});
    };
    ndarray whole_result;
    const auto whole_call = [&] { whole_result = mse({x.device, y.device}); };
    store(split, time_two_devices(context, on_second, split_call));
    store(whole, time_device(context, whole_call));
    const double split_loop_ms =
        time_two_devices(context, on_second, back_to_back_calls(split_call)).gpu_ms / back_to_back;
    const double whole_loop_ms =
        time_device(context, back_to_back_calls(whole_call)).gpu_ms / back_to_back;
    split.check = check_values(split_result.get<double>(), std::vector<double>{want});
    whole.check = check_values(whole_result.get<double>(), std::vector<double>{want});

    const double speedup = *whole.gpu_ms / *split.gpu_ms;
    const double loop_speedup = whole_loop_ms / split_loop_ms;
    split.note =
        format("one device %.4g ms: speedup %.2fx (goal >= 1.9x); ", *whole.gpu_ms, speedup) +
        format("%.0f calls back to back: %.2fx", back_to_back, loop_speedup);
    split.params["one_device_ms"] = *whole.gpu_ms;
    split.params["speedup_over_one_device"] = speedup;
    split.params["back_to_back_calls"] = back_to_back;
    split.params["back_to_back_ms"] = split_loop_ms;
    split.params["back_to_back_one_device_ms"] = whole_loop_ms;
    split.params["back_to_back_speedup"] = loop_speedup;
    return {split, whole};
}

// The seeds' MSE as a user writes it, mean((x - y) * (x - y)) with routines, on DistributedArrays
// of 2e8 float64 split evenly over `devices` devices' communicators (each shard's kernels on its
// device, then one all_gather of the partial sums); beside the same routines over all of it on
// device 0 (a row of its own with two devices, the note's figure with more).
std::vector<Record> distributed_mse_rows(const Context& context, int devices) {
    const std::int64_t total = std::max<std::int64_t>(devices, context.scaled(200'000'000));
    const auto x = uniform_input<double>(context, "x", {total}, 100.0, 141);
    const auto y = uniform_input<double>(context, "y", {total}, 100.0, 142);
    const double want = reference::mean_squared_error(x.host, y.host);
    const distributed::Communicators comms =
        std::make_shared<const std::vector<distributed::Communicator>>(
            distributed::Communicator::create_all(first_devices(devices)));
    const auto xs = distributed::distributed_array(std::span<const double>(x.host), {total}, comms);
    const auto ys = distributed::distributed_array(std::span<const double>(y.host), {total}, comms);
    const DevicesStreams streams(devices);
    const std::string n = std::to_string(devices);

    Record split = make_record("mse_distarray_" + n + "dev_f64_2e8",
                               "mean((x - y) * (x - y)) with routines on DistributedArrays split "
                               "over " +
                                   n + " devices",
                               "routines", {total}, "float64", "memory");
    Record whole = make_record("mse_routines_1dev_f64_2e8",
                               "mean((x - y) * (x - y)) with routines, all of it on device 0",
                               "routines", {total}, "float64", "memory");
    for (Record* r : {&split, &whole}) {
        r->bytes = 16.0 * static_cast<double>(total);
        r->inputs = {x.spec, y.spec};
    }
    split.params = Json::object({{"devices", devices}});
    whole.params = Json::object({{"devices", 1}});
    ndarray split_result;
    const auto split_call = [&] {
        const distributed::DistributedArray difference = xs - ys;
        split_result = distributed::mean(difference * difference);
    };
    ndarray whole_result;
    const auto whole_call = [&] {
        const ndarray difference = x.device - y.device;
        whole_result = mean(difference * difference);
    };
    store(split, time_devices(context, streams.others(), split_call));
    store(whole, time_device(context, whole_call));
    const double split_loop_ms =
        time_devices(context, streams.others(), back_to_back_calls(split_call)).gpu_ms /
        back_to_back;
    const double whole_loop_ms =
        time_device(context, back_to_back_calls(whole_call)).gpu_ms / back_to_back;
    split.check = check_values(split_result.get<double>(), std::vector<double>{want});
    whole.check = check_values(whole_result.get<double>(), std::vector<double>{want});
    const double speedup = *whole.gpu_ms / *split.gpu_ms;
    const double loop_speedup = whole_loop_ms / split_loop_ms;
    split.note = format("one device %.4g ms: speedup %.2fx; ", *whole.gpu_ms, speedup) +
                 format("%.0f calls back to back: %.2fx", back_to_back, loop_speedup);
    split.params["one_device_ms"] = *whole.gpu_ms;
    split.params["speedup_over_one_device"] = speedup;
    split.params["back_to_back_calls"] = back_to_back;
    split.params["back_to_back_ms"] = split_loop_ms;
    split.params["back_to_back_one_device_ms"] = whole_loop_ms;
    split.params["back_to_back_speedup"] = loop_speedup;
    if (devices == 2) {
        return {split, whole};
    }
    return {split};
}

// Rows [first, last) of `to`, all columns but the first and last, set to the 5-point stencil of
// `from` (examples/jacobi_heat.cpp's sweep), in one order of operations on every device.
void jacobi_sweep(const ndarray& from, const ndarray& to, std::int64_t first, std::int64_t last) {
    if (first >= last) {
        return;
    }
    const std::int64_t c = from.shape()[1];
    const Slice inner{1, c - 1};
    copyto(
        to[{Slice{first, last}, inner}],
        (((from[{Slice{first - 1, last - 1}, inner}] + from[{Slice{first + 1, last + 1}, inner}]) +
          from[{Slice{first, last}, Slice{0, c - 2}}]) +
         from[{Slice{first, last}, Slice{2, c}}]) *
            0.25);
}

constexpr int jacobi_iterations = 100;

// Jacobi iterations on a DistributedArray with one ghost row a side, split over its devices:
// each iteration's exchange runs on each device's halo stream while the rows that read no ghost
// are updated on its current stream, and the two rows next to the ghosts follow the exchange.
class SplitJacobi {
public:
    SplitJacobi(const distributed::DistributedArray& start, const std::vector<Stream>& halo)
        : u_(distributed::with_halo(start, 1)), next_(distributed::with_halo(start, 1)) {
        for (const Stream& stream : halo) {
            const Device device(stream.device());
            halo_.push_back(stream.view());
            updated_.emplace_back(device);
            exchanged_.emplace_back(device);
        }
    }

    void iterate(int iterations) {
        for (int i = 0; i < iterations; ++i) {
            for (std::size_t s = 0; s < halo_.size(); ++s) {
                const DeviceGuard on(Device(halo_[s].device()));
                updated_[s].record(current_stream());
                wait_event(halo_[s], updated_[s]);
            }
            distributed::exchange_halos(u_, halo_);
            for (std::size_t s = 0; s < halo_.size(); ++s) {
                const DeviceGuard on(Device(halo_[s].device()));
                const auto [first, inner_first, inner_last, last] = bounds(s);
                const ndarray& from = u_.local_shards()[s].padded;
                const ndarray& to = next_.local_shards()[s].padded;
                jacobi_sweep(from, to, inner_first, inner_last);
                exchanged_[s].record(halo_[s]);
                wait_event(current_stream(), exchanged_[s]);
                jacobi_sweep(from, to, first, inner_first);
                jacobi_sweep(from, to, inner_last, last);
            }
            std::swap(u_, next_);
        }
    }
    [[nodiscard]] const distributed::DistributedArray& result() const { return u_; }

private:
    // Padded rows to update (global rows 0 and n - 1 stay fixed), and the inner part that reads
    // no ghost.
    [[nodiscard]] std::array<std::int64_t, 4> bounds(std::size_t s) const {
        const std::int64_t n = u_.shape()[0];
        const distributed::AxisRange rows = u_.index_map()[u_.local_shards()[s].index].ranges[0];
        const std::int64_t first = std::max<std::int64_t>(rows.begin, 1) - rows.begin + 1;
        const std::int64_t last = std::min<std::int64_t>(rows.end, n - 1) - rows.begin + 1;
        const std::int64_t inner_first = std::clamp<std::int64_t>(2, first, last);
        const std::int64_t inner_last =
            std::clamp<std::int64_t>(rows.end - rows.begin, inner_first, last);
        return {first, inner_first, inner_last, last};
    }

    distributed::DistributedArray u_;
    distributed::DistributedArray next_;
    std::vector<StreamView> halo_;
    std::vector<Event> updated_;
    std::vector<Event> exchanged_;
};

// The same iterations over the whole grid on device 0.
void whole_jacobi(ndarray& u, ndarray& next, int iterations) {
    for (int i = 0; i < iterations; ++i) {
        jacobi_sweep(u, next, 1, u.shape()[0] - 1);
        std::swap(u, next);
    }
}

// 100 Jacobi iterations of a 16384x16384 float32 grid, split over `devices` devices with ghost
// rows and the exchange overlapping the interior's update; beside the same iterations on device 0
// (a row of its own with two devices, the note's figure with more). The check runs 100 iterations
// on both from the same start, which must agree exactly.
std::vector<Record> jacobi_rows(const Context& context, int devices) {
    const std::int64_t side =
        std::max<std::int64_t>(2 * std::int64_t{devices}, context.scaled_side(16384, 2));
    const auto grid = uniform_input<float>(context, "u", {side, side}, 100.0, 143);
    const distributed::Communicators comms =
        std::make_shared<const std::vector<distributed::Communicator>>(
            distributed::Communicator::create_all(first_devices(devices)));
    const auto start =
        distributed::distributed_array(std::span<const float>(grid.host), {side, side}, comms);
    const DevicesStreams streams(devices);
    std::vector<Stream> halo;
    for (const int device : first_devices(devices)) {
        halo.push_back(stream_on(Device(device)));
    }
    const std::string n = std::to_string(devices);

    Record split = make_record("jacobi_distarray_" + n + "dev_f32_16384",
                               "100 Jacobi iterations (5-point stencil, routines) on a "
                               "DistributedArray with ghost rows over " +
                                   n + " devices, exchange overlapping the interior",
                               "routines", {side, side}, "float32", "memory");
    Record whole = make_record("jacobi_routines_1dev_f32_16384",
                               "100 Jacobi iterations (5-point stencil, routines) on device 0",
                               "routines", {side, side}, "float32", "memory");
    for (Record* r : {&split, &whole}) {
        // One read and one write of the grid per iteration: the stencil's least traffic.
        r->bytes = 8.0 * static_cast<double>(side * side) * jacobi_iterations;
        r->inputs = {grid.spec};
    }
    split.params = Json::object({{"devices", devices}, {"iterations", jacobi_iterations}});
    whole.params = Json::object({{"devices", 1}, {"iterations", jacobi_iterations}});
    SplitJacobi timed(start, halo);
    ndarray u = grid.device.copy();
    ndarray next = grid.device.copy();
    store(split,
          time_devices(context, streams.others(), [&] { timed.iterate(jacobi_iterations); }));
    store(whole, time_device(context, [&] { whole_jacobi(u, next, jacobi_iterations); }));

    SplitJacobi checked(start, halo);
    checked.iterate(jacobi_iterations);
    u = grid.device.copy();
    next = grid.device.copy();
    whole_jacobi(u, next, jacobi_iterations);
    split.check = check_values(checked.result().get<float>(), u.get<float>());
    whole.check.detail = "the reference of " + split.name + "'s check";
    const double speedup = *whole.gpu_ms / *split.gpu_ms;
    split.note = format("one device %.4g ms: speedup %.2fx", *whole.gpu_ms, speedup);
    split.params["one_device_ms"] = *whole.gpu_ms;
    split.params["speedup_over_one_device"] = speedup;
    if (devices == 2) {
        return {split, whole};
    }
    return {split};
}

// NCCL (RCCL) called directly on kiln's communicators, in the library kiln loaded, as
// collectives.cpp calls it. kiln makes its communicators non-blocking: a call may answer
// ncclInProgress, and ncclCommGetAsyncError says when the group's calls are enqueued.
class GroupedNccl {
public:
    GroupedNccl() {
        const bool rccl = active_backend() == BackendKind::hip && KILN_HIP_NVIDIA == 0;
        const char* soname = rccl ? "librccl.so.1" : "libnccl.so.2";
        handle_ = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
        if (handle_ == nullptr) {
            throw std::runtime_error(std::string(soname) + " is not loaded in this process");
        }
        group_start_ = find<GroupCall>("ncclGroupStart");
        group_end_ = find<GroupCall>("ncclGroupEnd");
        all_reduce_ = find<AllReduce>("ncclAllReduce");
        async_error_ = find<AsyncError>("ncclCommGetAsyncError");
    }

    // in[d] summed into out[d] (float32) on communicator d and streams[d], one group for all, as
    // one thread driving several devices must (NCCL's user guide, "Group calls").
    void all_reduce_sum(const std::vector<distributed::Communicator>& comms,
                        const std::vector<ndarray>& in, const std::vector<ndarray>& out,
                        const std::vector<StreamView>& streams) const {
        enqueued(group_start_(), "ncclGroupStart");
        for (std::size_t d = 0; d < comms.size(); ++d) {
            enqueued(
                all_reduce_(in[d].data(), out[d].data(), static_cast<std::size_t>(in[d].size()),
                            nccl_float32, nccl_sum, comms[d].native(), streams[d].native()),
                "ncclAllReduce");
        }
        enqueued(group_end_(), "ncclGroupEnd");
        for (const auto& comm : comms) {
            int state = in_progress;
            while (state == in_progress) {
                enqueued(async_error_(comm.native(), &state), "ncclCommGetAsyncError");
            }
            enqueued(state, "ncclGroupEnd (its asynchronous result)");
        }
    }

private:
    static constexpr int nccl_float32 = 7;
    static constexpr int nccl_sum = 0;
    static constexpr int in_progress = 7;  // ncclInProgress
    using GroupCall = int (*)();
    using AllReduce = int (*)(const void*, void*, std::size_t, int, int, void*, void*);
    using AsyncError = int (*)(void*, int*);

    template <class F>
    F find(const char* name) {
        void* symbol = dlsym(handle_, name);
        if (symbol == nullptr) {
            throw std::runtime_error(std::string("no ") + name + " in the loaded library");
        }
        return reinterpret_cast<F>(symbol);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
    }
    static void enqueued(int rc, const char* call) {
        if (rc != 0 && rc != in_progress) {
            throw std::runtime_error(std::string(call) + " failed with code " + std::to_string(rc));
        }
    }

    void* handle_ = nullptr;
    GroupCall group_start_ = nullptr;
    GroupCall group_end_ = nullptr;
    AllReduce all_reduce_ = nullptr;
    AsyncError async_error_ = nullptr;
};

// Calls per timed sample: the devices stay busy, so each row times the collective, not the
// host's enqueue between two events (as in collectives.cpp).
constexpr int all_reduce_calls = 10;

// Each device's out equals the sum of the two inputs, computed on the host; large arrays are
// checked on a prefix.
Check sums_of(const std::vector<ndarray>& in, const std::vector<ndarray>& out) {
    const std::int64_t n = std::min<std::int64_t>(in[0].size(), std::int64_t{1} << 24);
    const auto prefix = [n](const ndarray& a) { return a[{Slice{.stop = n}}].get<float>(); };
    std::vector<float> want = prefix(in[0]);
    const std::vector<float> second = prefix(in[1]);
    for (std::size_t i = 0; i < want.size(); ++i) {
        want[i] += second[i];
    }
    Check check;
    for (const auto& o : out) {
        check = check_values(prefix(o), want);
        if (check.status != "ok") {
            check.detail = "device " + std::to_string(o.device()) + ": " + check.detail;
            break;
        }
    }
    return check;
}

// all_reduce (float32, sum) over devices 0 and 1 of this process at 8 MiB to 1 GiB a device:
// kiln's communicators from create_all, called in a Group, beside ncclAllReduce on their native
// handles in ncclGroupStart/End; one row each. GB/s is the bus bandwidth (nccl-tests'
// PERFORMANCE.md: the bytes of one device's array over the time, times 2(n - 1)/n).
std::vector<Record> two_device_all_reduce_rows(const Context& context) {
    const std::vector<distributed::Communicator> comms =
        distributed::Communicator::create_all({0, 1});
    const GroupedNccl nccl;
    const DeviceStream on_second(Device(1));
    const std::vector<StreamView> streams{current_stream(), on_second.stream};
    constexpr int devices = 2;
    const double bus_factor = 2.0 * (devices - 1) / devices;
    std::vector<Record> rows;
    for (const std::int64_t mib : {8, 64, 256, 1024}) {
        const std::int64_t count = std::max<std::int64_t>(1, context.scaled(mib << 20) / 4);
        std::vector<ndarray> in;
        std::vector<ndarray> out;
        for (int d = 0; d < devices; ++d) {
            const DeviceGuard on{Device(d)};
            in.push_back(
                arange(static_cast<double>(d), static_cast<double>(d + count), 1.0, float32));
            out.push_back(empty({count}, float32));
        }
        const std::string size = bytes_text(mib << 20);
        Record kiln = make_record("allreduce_2dev_f32_sum_" + size,
                                  "all_reduce (sum) over 2 devices of one process: kiln's "
                                  "communicators (create_all) in a Group",
                                  "Communicator", {count}, "float32", "memory");
        Record direct = make_record("allreduce_2dev_f32_sum_" + size + "_nccl_direct",
                                    "the same through ncclAllReduce on the communicators' native "
                                    "handles, in ncclGroupStart/End",
                                    "NCCL", {count}, "float32", "memory");
        for (Record* r : {&kiln, &direct}) {
            name_for_bytes(*r, mib << 20, 4 * count);
            r->bytes = 4.0 * static_cast<double>(count) * bus_factor;
            r->params = Json::object({{"calls_per_sample", all_reduce_calls},
                                      {"devices", devices},
                                      {"gbps_is", "bus bandwidth, algbw x 2(n-1)/n"}});
        }
        // Each side writes into outputs set to -1 first, so that its check sees its own sums.
        const auto timed = [&](Record& r, const std::function<void()>& all_reduce) {
            for (int d = 0; d < devices; ++d) {
                const DeviceGuard on{Device(d)};
                out[d].fill(-1.0);
            }
            store(r,
                  time_two_devices(context, on_second,
                                   [&] {
                                       for (int i = 0; i < all_reduce_calls; ++i) {
                                           all_reduce();
                                       }
                                   }),
                  all_reduce_calls);
            r.check = sums_of(in, out);
        };
        timed(kiln, [&] {
            distributed::Group group;
            for (int d = 0; d < devices; ++d) {
                const DeviceGuard on{Device(d)};
                comms[d].all_reduce(in[d], out[d], distributed::ReduceOp::sum, streams[d]);
            }
            group.end();
        });
        timed(direct, [&] { nccl.all_reduce_sum(comms, in, out, streams); });
        const double ratio = *direct.gpu_ms / *kiln.gpu_ms;
        kiln.note = format("NCCL direct %.4g ms: kiln / NCCL = %.1f%% of its bus bandwidth",
                           *direct.gpu_ms, ratio * 100);
        kiln.params["nccl_direct_ms"] = *direct.gpu_ms;
        kiln.params["kiln_over_nccl"] = ratio;
        rows.push_back(std::move(kiln));
        rows.push_back(std::move(direct));
    }
    return rows;
}

Workload two_device_all_reduce() {
    Workload w{.name = "allreduce_2dev_f32_sum",
               .description = "all_reduce over 2 devices of one process, kiln and NCCL direct",
               .needs_gpu = true,
               .not_on_host =
                   "its baseline is NCCL called directly, which the host backend has "
                   "not (its collectives are kiln's own)",
               .devices = 2};
    w.run_all = two_device_all_reduce_rows;
    return w;
}

}  // namespace

std::vector<Workload> multi_gpu_workloads() {
    std::vector<Workload> rows{
        {.name = "peer_copy_f32",
         .description = "64 MiB and 1 GiB from device 0 to 1: copyto, to_device, the vendor's",
         .needs_gpu = true,
         .run_all = peer_copy_rows,
         .devices = 2},
        {.name = "mse_2dev_f64_2e8",
         .description = "MSE of 2e8 float64 split over 2 devices, beside 1 device",
         .needs_gpu = true,
         .run_all = split_mse_rows,
         .devices = 2},
        two_device_all_reduce(),
    };
    for (const int devices : {2, 4}) {
        const std::string n = std::to_string(devices);
        rows.push_back(
            {.name = "mse_distarray_" + n + "dev_f64_2e8",
             .description =
                 "the seeds' MSE with routines on DistributedArrays over " + n + " devices",
             .needs_gpu = true,
             .run_all = [devices](const Context& c) { return distributed_mse_rows(c, devices); },
             .devices = devices});
        rows.push_back({.name = "jacobi_distarray_" + n + "dev_f32_16384",
                        .description = "100 Jacobi iterations with ghost rows over " + n +
                                       " devices, beside 1 device",
                        .needs_gpu = true,
                        .run_all = [devices](const Context& c) { return jacobi_rows(c, devices); },
                        .devices = devices});
    }
    return rows;
}

}  // namespace kiln::bench
