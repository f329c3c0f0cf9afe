// kiln-bench's workloads, by family. Each factory lists its workloads in the order they run.
#pragma once

#include "../context.hpp"
#include "../record.hpp"

#include <string>
#include <vector>

namespace kiln::bench {

// The copy every GB/s is compared with, 1 GiB: ndarray::copy() on a GPU, memcpy on the host
// backend's number of threads there.
[[nodiscard]] Record copy_bandwidth(const Context& context);

[[nodiscard]] std::vector<Workload> elementwise_workloads();
[[nodiscard]] std::vector<Workload> mse_workloads();
[[nodiscard]] std::vector<Workload> routine_workloads();
[[nodiscard]] std::vector<Workload> fuse_workloads();
// Lazy fusion's rows, each with it on whatever KILN_LAZY says.
[[nodiscard]] std::vector<Workload> lazy_workloads();
[[nodiscard]] std::vector<Workload> reduction_workloads();
[[nodiscard]] std::vector<Workload> raw_kernel_workloads();
[[nodiscard]] std::vector<Workload> stream_workloads();
[[nodiscard]] std::vector<Workload> launch_overhead_workloads();
[[nodiscard]] std::vector<Workload> pool_workloads();
[[nodiscard]] std::vector<Workload> first_call_workloads();
[[nodiscard]] std::vector<Workload> compile_workloads();
// A one-rank communicator's all_reduce, through kiln and through NCCL directly.
[[nodiscard]] std::vector<Workload> collective_workloads();

// Rows that need two devices, each beside its vendor or one-device baseline.
[[nodiscard]] std::vector<Workload> multi_gpu_workloads();

// The child process of the first-call workload: times the first call of each kernel
// (`class`, one per nonce) compiled by the parent, so found in the disk cache. Prints one
// line of seconds per nonce after the first, which is a warm-up.
[[nodiscard]] int first_call_child(const std::string& kernel_class,
                                   const std::vector<std::string>& nonces);

}  // namespace kiln::bench
