/// @file
/// The whole public API of kiln.
#pragma once

/// @mainpage kiln API reference
/// The public headers of kiln, CuPy for C++: `#include <kiln/kiln.hpp>` brings them all. Start
/// with kiln::ndarray, the routines in ufuncs.hpp and reductions.hpp, and the kernel classes
/// (kiln::ElementwiseKernel, kiln::ReductionKernel, kiln::RawKernel, kiln::RawModule, kiln::fuse,
/// KILN_JIT_KERNEL). The user guide, docs/guide/ in the repository, explains them in CuPy's order.

/// @namespace kiln
/// kiln's public API: CuPy's arrays, routines, custom kernels, streams, events and memory pools
/// for C++. Names follow CuPy's (cupy.ndarray is kiln::ndarray, cupy.add is kiln::add).

/// @namespace kiln::distributed
/// Communication between devices and processes (CuPy's cupyx.distributed): Communicator over
/// NCCL, RCCL or the host backend, the optional MPI bootstrap, and DistributedArray, one array
/// sharded across a communicator's ranks.

/// @namespace kiln::fusion
/// The expressions that kiln::fuse traces: Var and the ufuncs and reductions over it.

/// @namespace kiln::linalg
/// Linear algebra (cupy.linalg).

/// @namespace kiln::profiler
/// Timing of code on the CPU and the device (cupyx.profiler).

/// @namespace kiln::random
/// Random numbers (cupy.random).

#include <kiln/argument.hpp>
#include <kiln/backend.hpp>
#include <kiln/compile_cache.hpp>
#include <kiln/config.hpp>
#include <kiln/device.hpp>
#include <kiln/distributed/array.hpp>
#include <kiln/distributed/array_halo.hpp>
#include <kiln/distributed/array_matmul.hpp>
#include <kiln/distributed/array_random.hpp>
#include <kiln/distributed/array_redistribute.hpp>
#include <kiln/distributed/array_reductions.hpp>
#include <kiln/distributed/array_scatter.hpp>
#include <kiln/distributed/array_shardwise.hpp>
#include <kiln/distributed/communicator.hpp>
#include <kiln/distributed/group.hpp>
#include <kiln/dlpack.hpp>
#include <kiln/dtype.hpp>
#include <kiln/elementwise_kernel.hpp>
#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/fuse.hpp>
#include <kiln/graph.hpp>
#include <kiln/jit_kernel.hpp>
#include <kiln/kernel_attributes.hpp>
#include <kiln/lazy.hpp>
#include <kiln/linalg.hpp>
#include <kiln/manipulation.hpp>
#include <kiln/memory_overlap.hpp>
#include <kiln/memory_pool.hpp>
#include <kiln/memory_resource.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/operators.hpp>
#include <kiln/pool_resource.hpp>
#include <kiln/printing.hpp>
#include <kiln/profiler.hpp>
#include <kiln/random.hpp>
#include <kiln/raw_kernel.hpp>
#include <kiln/raw_module.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/reductions.hpp>
#include <kiln/resource_adaptors.hpp>
#include <kiln/scalar.hpp>
#include <kiln/scans.hpp>
#include <kiln/shape.hpp>
#include <kiln/show_config.hpp>
#include <kiln/stream.hpp>
#include <kiln/stream_view.hpp>
#include <kiln/ufuncs.hpp>
#include <kiln/version.hpp>
