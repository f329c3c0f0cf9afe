// The whole public API of kiln.
#pragma once

#include <kiln/backend.hpp>
#include <kiln/compile_cache.hpp>
#include <kiln/config.hpp>
#include <kiln/device.hpp>
#include <kiln/dlpack.hpp>
#include <kiln/dtype.hpp>
#include <kiln/elementwise_kernel.hpp>
#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/graph.hpp>
#include <kiln/kernel_attributes.hpp>
#include <kiln/memory_pool.hpp>
#include <kiln/memory_resource.hpp>
#include <kiln/ndarray.hpp>
#include <kiln/pool_resource.hpp>
#include <kiln/random.hpp>
#include <kiln/raw_kernel.hpp>
#include <kiln/raw_module.hpp>
#include <kiln/reduction_kernel.hpp>
#include <kiln/resource_adaptors.hpp>
#include <kiln/scalar.hpp>
#include <kiln/shape.hpp>
#include <kiln/stream.hpp>
#include <kiln/stream_view.hpp>
