// The shared device files that generated kernels carry as text rather than include, each of which
// compiles alone (after kiln/host.h on the host).
#pragma once

#include "core/codegen/device_header_texts.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kiln::test {

inline std::vector<std::pair<std::string, kiln::detail::header_text::DeviceFile>>
standalone_device_texts() {
    namespace text = kiln::detail::header_text;
    return {{"dims.h", text::dims_h()},
            {"elementwise_support.h", text::elementwise_support_h()},
            {"philox.h", text::philox_h()},
            {"reduction_support.h", text::reduction_support_h()}};
}

}  // namespace kiln::test
