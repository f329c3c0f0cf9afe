// The whole public API of kiln.
#pragma once

#include <kiln/backend.hpp>
#include <kiln/config.hpp>
#include <kiln/device.hpp>
#include <kiln/error.hpp>
#include <kiln/memory_resource.hpp>
#include <kiln/pool_resource.hpp>
#include <kiln/resource_adaptors.hpp>
