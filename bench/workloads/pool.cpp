// The memory pool's allocate + free pair when the pool's cache has the block: 100,000 pairs per
// sample, host time per pair.
#include "../timing.hpp"
#include "common.hpp"
#include "workloads.hpp"

#include <kiln/memory_pool.hpp>
#include <kiln/stream.hpp>

namespace kiln::bench {

namespace {

constexpr int pairs = 100'000;

Record pool_pairs(const Context& context, std::size_t bytes, const char* name) {
    Record r = make_record(name, "pool allocate + free pair, cache hit", "MemoryPool",
                           {static_cast<std::int64_t>(bytes)}, "bytes", "host");
    r.params = Json::object({{"bytes", static_cast<std::int64_t>(bytes)}, {"pairs", pairs}});
    MemoryPool& pool = get_default_memory_pool();
    const StreamView stream = current_stream();
    const auto run = [&] {
        for (int i = 0; i < pairs; ++i) {
            pool.deallocate(pool.allocate(bytes, stream), bytes, stream);
        }
    };
    for (int i = 0; i < context.options.warmup; ++i) {
        run();
    }
    std::vector<double> us;
    us.reserve(static_cast<std::size_t>(context.options.repeat));
    for (int i = 0; i < context.options.repeat; ++i) {
        us.push_back(host_seconds(run) * 1e6 / pairs);
    }
    r.host_us = median(us);
    r.samples = context.options.repeat;
    return r;
}

}  // namespace

std::vector<Workload> pool_workloads() {
    return {
        {"pool_allocate_free_512B", "pool allocate + free, 512 B", true, false,
         [](const Context& c) { return pool_pairs(c, 512, "pool_allocate_free_512B"); }},
        {"pool_allocate_free_1MiB", "pool allocate + free, 1 MiB", true, false,
         [](const Context& c) {
             return pool_pairs(c, std::size_t{1} << 20, "pool_allocate_free_1MiB");
         }},
    };
}

}  // namespace kiln::bench
