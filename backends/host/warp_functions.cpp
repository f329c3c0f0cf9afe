#include "warp_functions.hpp"

#include <cstdint>

namespace kiln::detail::host {

namespace {

bool in(unsigned group, unsigned lane) {
    return lane < warp_lanes && ((group >> lane) & 1U) != 0;
}

// The source lane of a shuffle, as shfl.sync computes it from the lane, the operand and the
// width's segment mask; the lane itself when the source lies outside its segment.
unsigned shuffle_source(WarpKind kind, unsigned lane, int operand, int width) {
    const int segment_mask = (static_cast<int>(warp_lanes) - width) & 31;
    const int clamp = kind == kiln_warp_shuffle_up ? 0 : 31;
    const int self = static_cast<int>(lane);
    const int max_lane = (self & segment_mask) | (clamp & ~segment_mask);
    const int min_lane = self & segment_mask;
    int source = 0;
    bool valid = false;
    switch (kind) {
        case kiln_warp_shuffle_up:
            source = self - operand;
            valid = source >= max_lane;
            break;
        case kiln_warp_shuffle_down:
            source = self + operand;
            valid = source <= max_lane;
            break;
        case kiln_warp_shuffle_xor:
            source = self ^ operand;
            valid = source <= max_lane;
            break;
        default:
            source = min_lane | (operand & 31 & ~segment_mask);
            valid = source <= max_lane;
            break;
    }
    return static_cast<unsigned>(valid ? source : self);
}

unsigned long long reduce(WarpKind kind, const std::array<WarpRequest, warp_lanes>& requests,
                          unsigned group) {
    bool first = true;
    std::uint32_t total = 0;
    for (unsigned lane = 0; lane < warp_lanes; ++lane) {
        if (!in(group, lane)) {
            continue;
        }
        const auto value = static_cast<std::uint32_t>(requests.at(lane).value);
        const auto signed_value = static_cast<std::int32_t>(value);
        const auto signed_total = static_cast<std::int32_t>(total);
        if (first) {
            total = value;
            first = false;
            continue;
        }
        switch (kind) {
            case kiln_warp_reduce_add:
                total += value;
                break;
            case kiln_warp_reduce_min:
                total = value < total ? value : total;
                break;
            case kiln_warp_reduce_max:
                total = value > total ? value : total;
                break;
            case kiln_warp_reduce_min_signed:
                total = static_cast<std::uint32_t>(signed_value < signed_total ? signed_value
                                                                               : signed_total);
                break;
            case kiln_warp_reduce_max_signed:
                total = static_cast<std::uint32_t>(signed_value > signed_total ? signed_value
                                                                               : signed_total);
                break;
            case kiln_warp_reduce_and:
                total &= value;
                break;
            case kiln_warp_reduce_or:
                total |= value;
                break;
            default:
                total ^= value;
                break;
        }
    }
    return total;
}

}  // namespace

WarpValues warp_results(const std::array<WarpRequest, warp_lanes>& requests, unsigned group) {
    unsigned ballot = 0;
    for (unsigned lane = 0; lane < warp_lanes; ++lane) {
        if (in(group, lane) && requests.at(lane).value != 0) {
            ballot |= 1U << lane;
        }
    }
    WarpValues results{};
    for (unsigned lane = 0; lane < warp_lanes; ++lane) {
        if (!in(group, lane)) {
            continue;
        }
        const WarpRequest& request = requests.at(lane);
        unsigned long long& result = results[lane];
        switch (request.kind) {
            case kiln_warp_shuffle:
            case kiln_warp_shuffle_up:
            case kiln_warp_shuffle_down:
            case kiln_warp_shuffle_xor: {
                const unsigned source =
                    shuffle_source(request.kind, lane, request.operand, request.width);
                result = in(group, source) ? requests.at(source).value : request.value;
                break;
            }
            case kiln_warp_ballot:
                result = ballot;
                break;
            case kiln_warp_any:
                result = ballot != 0 ? 1 : 0;
                break;
            case kiln_warp_all:
                result = ballot == group ? 1 : 0;
                break;
            case kiln_warp_sync:
                result = 0;
                break;
            case kiln_warp_activemask:
                result = group;
                break;
            case kiln_warp_match_any:
            case kiln_warp_match_all: {
                unsigned same = 0;
                for (unsigned other = 0; other < warp_lanes; ++other) {
                    if (in(group, other) && requests.at(other).value == request.value) {
                        same |= 1U << other;
                    }
                }
                if (request.kind == kiln_warp_match_any) {
                    result = same;
                } else {
                    result = same == group ? (std::uint64_t{1} << 32U) | group : 0;
                }
                break;
            }
            default:
                result = reduce(request.kind, requests, group);
                break;
        }
    }
    return results;
}

}  // namespace kiln::detail::host
