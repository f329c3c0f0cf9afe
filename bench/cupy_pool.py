"""CuPy's figures for kiln-core-bench's pool workload, measured the same way (host clock,
median of 21 runs of 100,000 allocate+free pairs after 2 warm-up runs)."""
import statistics
import time

import cupy

pool = cupy.get_default_memory_pool()
PAIRS = 100_000
for size in (512, 1 << 20):
    def run():
        for _ in range(PAIRS):
            pool.malloc(size)  # the pointer is dropped at once: back to the pool

    for _ in range(2):
        run()
    times = []
    for _ in range(21):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    print(f"cupy    allocate+free {size:8d} B   {statistics.median(times) / PAIRS * 1e9:8.1f} ns per pair")
