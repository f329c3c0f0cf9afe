// Two streams ordered by an event, timed with events, and the default memory pool's statistics
// as arrays come and go. The sum is checked against its closed form, the pool's figures against
// the bytes requested (the pool rounds each block up to a multiple of 512 bytes).
#include <kiln/kiln.hpp>

#include <cstddef>
#include <cstdint>
#include <iomanip>
#include <iostream>

namespace {

bool agrees(const char* what, double got, double want) {
    const bool ok = got == want;
    std::cout << what << ": " << std::setprecision(17) << got;
    if (!ok) {
        std::cout << "  MISMATCH: expected " << want;
    }
    std::cout << '\n';
    return ok;
}

}  // namespace

int main() {
    try {
        kiln::MemoryPool& pool = kiln::get_default_memory_pool();
        const std::int64_t n = 1'000'000;
        const std::size_t block_bytes = (n * sizeof(double) + 511) / 512 * 512;

        kiln::Stream producer(/*non_blocking=*/true);
        kiln::Stream consumer(/*non_blocking=*/true);
        bool ok = true;
        const std::size_t used_before = pool.used_bytes();
        {
            kiln::ndarray x;
            {
                const kiln::StreamGuard on(producer);  // CuPy's `with producer:`
                x = kiln::arange(0.0, static_cast<double>(n), 1.0) * 2.0;  // 0, 2, 4, ...
            }
            // The consumer waits for the producer's work, not for the whole device.
            const kiln::Event ready = producer.record();
            consumer.wait_event(ready);

            kiln::Event start;
            kiln::Event end;
            start.record(consumer);
            kiln::ndarray total;
            {
                const kiln::StreamGuard on(consumer);
                total = kiln::sum(x);
            }
            end.record(consumer);
            end.synchronize();
            std::cout << "sum on the consumer stream took " << kiln::elapsed_time(start, end)
                      << " ms\n";
            // sum of 2i for i < n is n(n - 1).
            ok = agrees("sum", total.item<double>(), static_cast<double>(n) * (n - 1)) && ok;

            // x's block and the 0-d total are in use now.
            const std::size_t used = pool.used_bytes() - used_before;
            std::cout << "in use while x lives: " << used << " bytes\n";
            if (used < block_bytes) {
                std::cout << "MISMATCH: expected at least " << block_bytes << " bytes in use\n";
                ok = false;
            }
        }
        // Freed arrays go back to the pool, which keeps them for the next allocation.
        consumer.synchronize();
        producer.synchronize();
        ok = agrees("bytes in use after the arrays are gone",
                    static_cast<double>(pool.used_bytes()), static_cast<double>(used_before)) &&
             ok;
        std::cout << "bytes cached: " << pool.free_bytes() << " in " << pool.n_free_blocks()
                  << " free blocks\n";
        if (pool.free_bytes() < block_bytes) {
            std::cout << "MISMATCH: expected at least " << block_bytes << " bytes cached\n";
            ok = false;
        }
        pool.free_all_blocks();
        ok = agrees("bytes cached after free_all_blocks", static_cast<double>(pool.free_bytes()),
                    0.0) &&
             ok;
        return ok ? 0 : 1;
    } catch (const kiln::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
}
