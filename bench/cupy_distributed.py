"""CuPy's anchor for kiln-bench's distributed MSE: the seeds' mean((x - y) * (x - y)) of two
float64 arrays of 2e8 elements, split in halves over GPUs 0 and 1 with cupyx.distributed.array,
beside the same on GPU 0 alone with plain CuPy. Prints one JSON row per measurement, named as
kiln-bench's rows (bench/workloads/multi_gpu.cpp: mse_distarray_2dev_f64_2e8 and
mse_routines_1dev_f64_2e8), so they sit beside kiln's figures.

    python3 bench/cupy_distributed.py [--size 200000000] [--repeat 20] [--warmup 3]

Inputs are kiln-bench's: kiln::random's uniform draws in [0, 100) with seeds 141 and 142, redrawn
on the host by bench/philox.py. cupyx.distributed.array reduces only along a given axis, into a
DistributedArray of partial sums (one per device), and its get() adds them on the host; so
each call here ends with the result on the host, on one GPU too (cupy.mean(...).get()), and both
are timed alike: every device synchronized, a CUDA event on GPU 0, the call, every device
synchronized again, a second event; the median over --repeat calls after --warmup untimed ones.
Each result is checked against NumPy's float64 mean on the same inputs (relative 1e-12).
Exits with a message, and status 2, where CuPy sees fewer than 2 GPUs.
"""
import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import philox  # noqa: E402  (bench/philox.py, beside this file)

TOLERANCE = 1e-12


def timed(cp, call, devices, repeat, warmup):
    """Median and minimum milliseconds of `call` between two events on GPU 0, each call framed by
    a synchronization of every device in `devices`; and the last call's result."""
    def synchronize():
        for device in devices:
            cp.cuda.Device(device).synchronize()

    result = None
    for _ in range(warmup):
        result = call()
    samples = []
    with cp.cuda.Device(0):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        for _ in range(repeat):
            synchronize()
            start.record()
            result = call()
            synchronize()
            end.record()
            end.synchronize()
            samples.append(cp.cuda.get_elapsed_time(start, end))
    return statistics.median(samples), min(samples), result


def check(got, want):
    error = abs(got - want) / abs(want)
    return {"ok": bool(error <= TOLERANCE), "relative_error": error, "tolerance": TOLERANCE}


def row(name, description, devices, size, repeat, warmup, median_ms, min_ms, got, want):
    return {"name": name, "library": "cupy", "description": description,
            "shape": [size], "dtype": "float64", "bytes": 16.0 * size,
            "gpu_ms": median_ms, "gpu_ms_min": min_ms, "samples": repeat, "warmup": warmup,
            "params": {"devices": devices}, "check": check(got, want)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200_000_000, help="elements of x and of y")
    parser.add_argument("--repeat", type=int, default=20, help="timed calls (median reported)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls first")
    args = parser.parse_args()

    try:
        import cupy as cp
        from cupyx.distributed import array as darray
    except ImportError as e:
        sys.exit(f"cupy_distributed.py: CuPy with cupyx.distributed.array is needed ({e})")
    visible = cp.cuda.runtime.getDeviceCount()
    if visible < 2:
        print(f"cupy_distributed.py: needs 2 GPUs, CuPy sees {visible}; nothing measured",
              file=sys.stderr)
        sys.exit(2)

    n = args.size
    x = philox.uniform(n, 0.0, 100.0, 141, np.dtype(np.float64))
    y = philox.uniform(n, 0.0, 100.0, 142, np.dtype(np.float64))
    want = float(np.mean(np.square(x - y)))

    # Halves on GPUs 0 and 1, as kiln's default split of 2e8 over two ranks.
    half = n // 2 + n % 2
    index_map = {0: slice(0, half), 1: slice(half, n)}
    xs = darray.distributed_array(x, index_map)
    ys = darray.distributed_array(y, index_map)

    def split_call():
        difference = xs - ys
        partials = (difference * difference).sum(axis=0)
        # A DistributedArray reads back with get(), which adds the devices' partial sums.
        return float(partials.get()) / n

    split_ms, split_min, split_got = timed(cp, split_call, (0, 1), args.repeat, args.warmup)
    del xs, ys

    with cp.cuda.Device(0):
        xd, yd = cp.asarray(x), cp.asarray(y)

        def whole_call():
            difference = xd - yd
            return float(cp.mean(difference * difference).get())

        whole_ms, whole_min, whole_got = timed(cp, whole_call, (0,), args.repeat, args.warmup)

    split = row("mse_distarray_2dev_f64_2e8",
                "mean((x - y) * (x - y)) on cupyx.distributed.array halves over 2 GPUs, "
                "the partial sums added by get()", 2, n, args.repeat, args.warmup, split_ms,
                split_min, split_got, want)
    whole = row("mse_routines_1dev_f64_2e8",
                "mean((x - y) * (x - y)) with plain CuPy, all of it on GPU 0, read back",
                1, n, args.repeat, args.warmup, whole_ms, whole_min, whole_got, want)
    split["params"]["one_device_ms"] = whole_ms
    split["params"]["speedup_over_one_device"] = whole_ms / split_ms
    for record in (split, whole):
        print(json.dumps(record))
    return 0 if split["check"]["ok"] and whole["check"]["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
