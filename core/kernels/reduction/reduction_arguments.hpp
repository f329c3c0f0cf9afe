// The arguments of ReductionKernel's two kernels, packed in the order and with the sizes of the
// parameter lists reduction_source() declares for the same variant.
#pragma once

#include "../argument_pack.hpp"
#include "reduction_source.hpp"

#include <kiln/shape.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kiln::detail {

// What one call passes besides the variant: the strategy, the collapsed shapes, and per operand
// its data and strides (inputs over the kept then the reduced axes; outputs over the kept ones).
struct ReductionValues {
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t chunk = 0;
    std::int64_t split = 1;
    int lanes = 1;
    bool lanes_fast = true;
    int finish_lanes = 1;
    void* partial = nullptr;
    void* counter = nullptr;  // the stream's, when the reduce kernel's last block finishes
    Shape out_shape;
    Shape reduce_shape;
    struct Input {
        const void* data = nullptr;
        Strides out_strides;
        Strides reduce_strides;
        std::array<std::byte, 16> scalar{};
    };
    std::vector<Input> inputs;
    struct Output {
        void* data = nullptr;
        Strides strides;
    };
    std::vector<Output> outputs;
};

[[nodiscard]] ArgumentPack reduce_arguments(const ReductionVariant& v, const ReductionValues& x);
[[nodiscard]] ArgumentPack finish_arguments(const ReductionVariant& v, const ReductionValues& x);

// The slots of the two kernels' parameters for any call of `v`.
[[nodiscard]] std::vector<ArgumentSlot> reduce_layout(const ReductionVariant& v);
[[nodiscard]] std::vector<ArgumentSlot> finish_layout(const ReductionVariant& v);

}  // namespace kiln::detail
