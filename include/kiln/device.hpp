/// @file
/// GPU devices: discovery, properties and synchronization (CuPy's cupy.cuda.Device).
#pragma once

#include <cstddef>
#include <string>

namespace kiln {

/// What a device is, read once per device and cached.
struct DeviceProperties {
    /// The device's name as the driver gives it.
    std::string name;
    /// "sm_90" on CUDA; the full target ID such as "gfx90a:sramecc+:xnack-" on HIP.
    std::string arch;
    /// Streaming multiprocessors (NVIDIA) or compute units (AMD).
    int multiprocessor_count = 0;
    /// Threads per warp or wavefront: 32, or 64 on CDNA.
    int warp_size = 0;
    /// The most threads one block may have.
    int max_threads_per_block = 0;
    /// Bytes of the device's memory.
    std::size_t total_memory = 0;
    /// Bytes of shared memory a block gets without opting in.
    std::size_t shared_memory_per_block = 0;
    /// The most a kernel may opt in to; equal to shared_memory_per_block where there is no opt-in.
    std::size_t shared_memory_per_block_optin = 0;
    /// The least urgent priority; numerically lower is more urgent on both vendors.
    int least_stream_priority = 0;
    /// The most urgent priority (numerically the least).
    int greatest_stream_priority = 0;
};

/// Number of devices of the active backend; 0, never an exception, when there is no driver or
/// no device, or KILN_BACKEND names no backend of this build. no_device_reason() says why.
[[nodiscard]] int device_count();
/// Why no GPU runs the kernels: why the active backend sees no device, or, when the host backend
/// runs them, why no GPU backend does ("no GPU backend found a device: cuda: ...; running on the
/// host backend"). "" when a GPU backend sees a device.
[[nodiscard]] std::string no_device_reason();

/// A device of the active backend, by index.
class Device {
public:
    /// The default device: KILN_DEVICE, else 0.
    Device();
    /// Throws NoDevice when there are no devices, Error when the index is out of range.
    explicit Device(int id);

    /// The calling thread's current device.
    [[nodiscard]] static Device current();

    /// The device index.
    [[nodiscard]] int id() const noexcept { return id_; }
    /// Makes this the calling thread's current device (CuPy's Device.use()).
    void use() const;
    /// The device's properties, read on first use.
    [[nodiscard]] const DeviceProperties& properties() const;
    /// Blocks until all work queued on this device has finished; reports asynchronous faults.
    void synchronize() const;

    /// Whether this device can read and write `peer`'s memory directly (false for itself), and
    /// making it able to (CuPy's runtime.deviceCanAccessPeer and deviceEnablePeerAccess). kiln
    /// enables it by itself, where the devices can, for a copy between devices (which then goes
    /// device to device, not staged through the host) and for a call given another device's
    /// array. Enabling twice is no error; Error when the devices cannot.
    [[nodiscard]] bool can_access_peer(const Device& peer) const;
    /// Lets this device's kernels and copies reach `peer`'s memory.
    void enable_peer_access(const Device& peer) const;

    /// Equal when the indices are.
    friend bool operator==(const Device&, const Device&) = default;

private:
    int id_;
};

/// Makes a device current for the calling thread while in scope, then restores the previous one
/// (CuPy's `with Device(1):`). `DeviceGuard guard(1)` or `DeviceGuard guard{Device(id)}`; note that
/// `DeviceGuard guard(Device(id))` declares a function (C++'s most vexing parse).
class DeviceGuard {
public:
    /// Makes `device` current until the guard goes out of scope.
    explicit DeviceGuard(const Device& device);
    /// The device of index `device` (Error when out of range, as Device(int)).
    explicit DeviceGuard(int device);
    ~DeviceGuard();
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;
    DeviceGuard(DeviceGuard&&) = delete;
    DeviceGuard& operator=(DeviceGuard&&) = delete;

private:
    int previous_;
};

}  // namespace kiln
