// The whole public API of kiln.
#pragma once

#include <kiln/backend.hpp>
#include <kiln/config.hpp>
#include <kiln/device.hpp>
#include <kiln/dtype.hpp>
#include <kiln/error.hpp>
#include <kiln/event.hpp>
#include <kiln/graph.hpp>
#include <kiln/shape.hpp>
#include <kiln/stream.hpp>
#include <kiln/stream_view.hpp>
