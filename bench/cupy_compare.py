"""CuPy's side of kiln-bench: the same workloads, sizes, seeded inputs and kernel sources, in CuPy
on the same GPU, measured the same way; then a combined table beside kiln's figures.

    python3 bench/cupy_compare.py bench/results/<device>-<date>.json

Reads kiln-bench's results file, which holds each workload's shapes, input seeds, parameters and
kernel definitions, so nothing here repeats them. Inputs are redrawn on the host with the NumPy
port of kiln::random (bench/philox.py) and uploaded with cupy.asarray. Device times are the
median of CUDA event pairs around each call after warm-up; host times are perf_counter around the
call; peak memory is the pool's total_bytes() grown during the workload (kiln's method). Each
CuPy result is checked against NumPy on the same inputs, with kiln's tolerances. Rows that need
two GPUs run on devices 0 and 1, and are skipped, saying so, where CuPy sees fewer.

Writes <results>-cupy.json (CuPy's records) and <results>-combined.json / .md (both side by side:
kiln time, CuPy time and their ratio per workload) beside the input file.
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import philox  # noqa: E402  (bench/philox.py, beside this file)

TOLERANCE = {"float32": 1e-5, "float64": 1e-12, "complex64": 1e-5, "complex128": 1e-12}
COMPLEX_VIEWS = ("complex64", "complex128")


# --- inputs -------------------------------------------------------------------------------------

def input_key(spec):
    params = tuple(spec.get(k) for k in ("low", "high", "mean", "stddev"))
    return (spec["distribution"], params, spec["seed"], spec["dtype"], spec.get("view", ""))


def draw_count(spec):
    count = math.prod(spec["shape"])
    return 2 * count if spec.get("view") in COMPLEX_VIEWS else count


def draw(spec, count):
    dtype = np.dtype(spec["dtype"])
    if spec["distribution"] == "uniform":
        return philox.uniform(count, spec["low"], spec["high"], spec["seed"], dtype)
    if spec["distribution"] == "normal":
        return philox.normal(count, spec["mean"], spec["stddev"], spec["seed"], dtype)
    return philox.integers(count, spec["low"], spec["high"], spec["seed"], dtype)


class Inputs:
    """Host inputs by spec. Element k of a draw does not depend on its length, so each stream is
    drawn once at the longest length any workload needs and sliced, and dropped after its last
    use."""

    def __init__(self, records):
        self.longest, self.last_use, self.cache = {}, {}, {}
        for i, record in enumerate(records):
            for spec in record.get("inputs", []):
                key = input_key(spec)
                self.longest[key] = max(self.longest.get(key, 0), draw_count(spec))
                self.last_use[key] = i

    def host(self, spec):
        key = input_key(spec)
        if key not in self.cache:
            self.cache[key] = draw(spec, self.longest[key])
        values = self.cache[key][:draw_count(spec)]
        check_first_values(spec, values)
        if spec.get("view") in COMPLEX_VIEWS:
            values = values.view(np.dtype(spec["view"]))
        return values.reshape(spec["shape"])

    def done_with(self, index):
        for key, last in self.last_use.items():
            if last == index:
                self.cache.pop(key, None)


def check_first_values(spec, values):
    """The port against kiln's own first values: uniform and integers bitwise, normal within a
    few ulp (the port takes NumPy's log and cos, which round differently from kiln's own)."""
    first = np.array(spec.get("first", []), dtype=np.float64)
    got = values[:len(first)].astype(np.float64)
    exact = spec["distribution"] != "normal"
    if exact and not np.array_equal(got, first):
        raise RuntimeError(f"philox port differs from kiln for input {spec}: {got} != {first}")
    if not exact and not np.allclose(got, first, rtol=1e-6, atol=0):
        raise RuntimeError(f"philox port differs from kiln for input {spec}: {got} != {first}")


# --- measuring ----------------------------------------------------------------------------------

class Run:
    """What every workload gets: the options and the run's copy bandwidth."""

    def __init__(self, cupy, repeat, warmup):
        self.cupy, self.repeat, self.warmup = cupy, repeat, warmup
        self.stream = cupy.cuda.Stream(non_blocking=True)
        self.pool = cupy.get_default_memory_pool()
        self.streams_of = {}
        self.nccl_comms = None  # devices 0 and 1, made by the first all_reduce row

    def stream_of(self, device):
        """A non-blocking stream of `device` (self.stream for device 0), made once."""
        if device == 0:
            return self.stream
        if device not in self.streams_of:
            with self.cupy.cuda.Device(device):
                self.streams_of[device] = self.cupy.cuda.Stream(non_blocking=True)
        return self.streams_of[device]

    def time_device(self, enqueue, calls=1, device=0):
        """Times `enqueue` by events on the stream of `device` (self.stream by default)."""
        cp = self.cupy
        stream = self.stream_of(device)
        with cp.cuda.Device(device), stream:
            for _ in range(self.warmup):
                enqueue()
            stream.synchronize()
            start, end = cp.cuda.Event(), cp.cuda.Event()
            gpu_ms, host_us = [], []
            for _ in range(self.repeat):
                start.record(stream)
                t0 = time.perf_counter()
                enqueue()
                host_us.append((time.perf_counter() - t0) * 1e6)
                end.record(stream)
                end.synchronize()
                gpu_ms.append(cp.cuda.get_elapsed_time(start, end))
        return {"gpu_ms": statistics.median(gpu_ms) / calls,
                "gpu_ms_min": min(gpu_ms) / calls,
                "host_us_per_call": statistics.median(host_us) / calls,
                "samples": self.repeat}

    def start_peak(self):
        self.stream.synchronize()
        self.pool.free_all_blocks()
        return self.pool.total_bytes()


def real_parts(values):
    """float64 values; complex ones as their real and imaginary parts side by side."""
    values = np.asarray(values)
    if np.iscomplexobj(values):
        return values.astype(np.complex128).ravel().view(np.float64)
    return values.astype(np.float64).ravel()


def relative_check(got, want, tolerance):
    got, want = real_parts(got), real_parts(want)
    if got.shape != want.shape:
        return {"status": "FAIL", "detail": f"{got.size} values, the reference {want.size}"}
    if np.isnan(got).any() or np.isnan(want).any():
        return {"status": "FAIL", "detail": "NaN"}
    norm = np.linalg.norm(want)
    error = np.linalg.norm(got - want) / norm if norm > 0 else np.linalg.norm(got - want)
    ok = bool(error <= tolerance)
    return {"status": "ok" if ok else "FAIL", "error": float(error), "tolerance": tolerance,
            "detail": "" if ok else f"relative error {error:.3g} exceeds {tolerance:.0e}"}


def check(got, want, dtype):
    if dtype in TOLERANCE:
        return relative_check(got, want, TOLERANCE[dtype])
    got, want = np.asarray(got).ravel(), np.asarray(want).ravel()
    if got.shape != want.shape:
        return {"status": "FAIL", "detail": f"{got.size} values, the reference {want.size}"}
    mismatches = int(np.sum(got != want))
    return {"status": "ok" if mismatches == 0 else "FAIL", "error": mismatches, "tolerance": 0,
            "detail": "" if mismatches == 0 else f"{mismatches} values differ"}


# --- the kernels, from kiln's definitions --------------------------------------------------------

def make_kernel(cp, definition, preamble=""):
    kind = definition["class"]
    if kind == "ElementwiseKernel":
        return cp.ElementwiseKernel(definition["in_params"], definition["out_params"],
                                    definition["operation"], definition["name"],
                                    preamble=preamble)
    if kind == "ReductionKernel":
        return cp.ReductionKernel(definition["in_params"], definition["out_params"],
                                  definition["map_expr"], definition["reduce_expr"],
                                  definition["post_map_expr"], definition["identity"],
                                  definition["name"], preamble=preamble)
    return cp.RawKernel(preamble + definition["code"], definition["name"])


def prime_factor_sums(n):
    """Sums of the prime factors of 2 .. n, with multiplicity (the kernel's out[k - 2]), from a
    smallest-prime-factor sieve."""
    smallest = np.arange(n + 1, dtype=np.int64)
    for p in range(2, math.isqrt(n) + 1):
        if smallest[p] == p:
            block = smallest[p * p::p]
            block[block == np.arange(p * p, n + 1, p)] = p
    k = np.arange(2, n + 1, dtype=np.int64)
    total = np.zeros_like(k)
    while True:
        active = k > 1
        if not active.any():
            return total
        factor = smallest[k[active]]
        total[active] += factor
        k[active] //= factor


# --- workloads: each returns (result figures, check) ---------------------------------------------

def full_size_name(record):
    """The row's name at --size-scale 1, which the workloads below are matched on (results files
    from before kiln-bench named rows for the sizes that ran have only "name")."""
    return record.get("full_size_name", record["name"])


def run_workload(run, inputs, record):
    cp = run.cupy
    name = full_size_name(record)
    specs = {spec["name"]: spec for spec in record.get("inputs", [])}
    host = {key: inputs.host(spec) for key, spec in specs.items()}
    params = record.get("params") or {}
    definition = record.get("kernel") or {}
    base = run.start_peak()
    dev = {key: cp.asarray(value) for key, value in host.items()}
    out = {}

    def finish(timing, got, want, dtype):
        result = dict(timing)
        result["check"] = check(got, want, dtype) if want is not None else {"status": "-"}
        result["peak_bytes"] = run.pool.total_bytes() - base
        return result

    if name == "copy_d2d_f32_1GiB":
        # Into a preallocated array, as kiln's figure: a plain device-to-device memcpy.
        source = cp.zeros(1 << 28, dtype=cp.float32)
        target = cp.empty_like(source)
        timing = run.time_device(lambda: cp.copyto(target, source))
        return finish(timing, None, None, None)

    if name.startswith(("clipped_relu", "squared_diff", "squared_magnitude", "conj_multiply",
                        "vector_add", "softplus", "twice_transposed")):
        kernel = make_kernel(cp, definition)
        x = dev["z" if "z" in dev else "x"]
        if name.startswith("clipped_relu"):
            cap = params["cap"]
            args, want = (x, cap), np.minimum(np.maximum(host["x"], 0.0), cap)
        elif name.startswith("squared_diff"):
            args, want = (x, dev["y"]), (host["x"] - host["y"]) ** 2
        elif name.startswith("squared_magnitude") and "z" in host:
            z = host["z"]
            args, want = (x,), z.real * z.real + z.imag * z.imag
        elif name.startswith("squared_magnitude"):
            args, want = (x, dev["y"]), host["x"] * host["x"] + host["y"] * host["y"]
        elif name.startswith("conj_multiply"):
            args, want = (x, dev["y"]), host["x"] * np.conj(host["y"])
        elif name.startswith("vector_add"):
            args, want = (x, dev["y"]), host["x"] + host["y"]
        elif name.startswith("softplus"):
            h = host["x"]
            args = (x,)
            want = np.maximum(h, np.float32(0)) + np.log1p(np.exp(-np.abs(h)))
        else:
            args, want = (x.T,), np.ascontiguousarray((host["x"] + host["x"]).T)
        timing = run.time_device(lambda: out.update(y=kernel(*args)))
        # The result's dtype sets the tolerance (complex128 in, float64 out).
        return finish(timing, cp.asnumpy(out["y"]), want, str(out["y"].dtype))

    if name.startswith("ufunc_add_"):
        # The same routine in CuPy: cupy.add of the same inputs.
        x, y = dev["x"], dev["y"]
        timing = run.time_device(lambda: out.update(z=cp.add(x, y)))
        return finish(timing, cp.asnumpy(out["z"]), host["x"] + host["y"], str(out["z"].dtype))

    if name.startswith("fuse_") or name == "launch_overhead_fused":
        return fused_workload(run, record, host, dev, out, finish)

    if name.startswith("routine_sum_axis"):
        axis = params["axis"]
        timing = run.time_device(lambda: out.update(r=cp.sum(dev["x"], axis=axis)))
        want = np.sum(host["x"].astype(np.float64), axis=axis)
        return finish(timing, cp.asnumpy(out["r"]), want, record["dtype"])

    if name.startswith("routine_matmul_f32_"):
        a, b = dev["a"], dev["b"]
        timing = run.time_device(lambda: out.update(c=cp.matmul(a, b)))
        rows = slice(0, None, 64)
        want = host["a"][rows].astype(np.float64) @ host["b"].astype(np.float64)
        return finish(timing, cp.asnumpy(out["c"])[rows], want, "float32")

    if name == "routine_cumsum_f32_1e8":
        timing = run.time_device(lambda: out.update(r=cp.cumsum(dev["x"])))
        want = np.cumsum(host["x"].astype(np.float64))
        return finish(timing, cp.asnumpy(out["r"]), want, "float32")

    if name in ("routine_mse_f64_1e8", "lazy_mse_f64_1e8"):
        x, y = dev["x"], dev["y"]
        timing = run.time_device(lambda: out.update(r=cp.mean((x - y) ** 2)))
        want = np.mean((host["x"] - host["y"]) ** 2)
        return finish(timing, [float(out["r"])], [want], "float64")

    if name.startswith(TWO_DEVICE_ROWS):
        return two_device_workload(run, record, host, dev, out, finish)

    if name.startswith("mse_"):
        x, y, n = dev["x"], dev["y"], host["x"].size
        want = np.mean((host["x"] - host["y"]) ** 2)
        if name.startswith("mse_reduction"):
            kernel = make_kernel(cp, definition)
            timing = run.time_device(lambda: out.update(r=kernel(x, y)))
            got = float(out["r"])
        elif name.startswith("mse_two_step"):
            difference = make_kernel(cp, definition["elementwise"])
            total = make_kernel(cp, definition["reduction"])
            timing = run.time_device(lambda: out.update(r=total(difference(x, y))))
            got = float(out["r"]) / n
        else:
            kernel = make_kernel(cp, definition)
            block = params["block"]
            sms = cp.cuda.Device().attributes["MultiProcessorCount"]
            grid = max(1, min((n + block - 1) // block, sms * params["blocks_per_sm"]))
            partial = cp.empty(grid, dtype=cp.float64)
            done = cp.zeros(1, dtype=cp.uint32)
            result = cp.zeros((), dtype=cp.float64)
            timing = run.time_device(lambda: kernel(
                (grid,), (block,), (x, y, partial, done, result, np.int64(n)),
                shared_mem=block * 8))
            got = float(result)
        return finish(timing, [got], [want], "float64")

    if name.startswith("sum_c"):
        kernel = make_kernel(cp, definition)
        want = np.sum(host["x"].astype(np.complex128))
        timing = run.time_device(lambda: out.update(r=kernel(dev["x"])))
        return finish(timing, [complex(out["r"])], [want], record["dtype"])

    if name.startswith(("l2norm", "sum_axis")):
        kernel = make_kernel(cp, definition)
        h = host["x"].astype(np.float64)
        axis = params.get("axis")
        if name.startswith("l2norm"):
            want = np.sqrt(np.sum(h * h, axis=axis))
        else:
            want = np.sum(h, axis=axis)
        timing = run.time_device(lambda: out.update(r=kernel(dev["x"], axis=axis)))
        return finish(timing, cp.asnumpy(out["r"]), want, record["dtype"])

    if name.startswith(("prime_factor_sum", "overlap_")):
        kernel = make_kernel(cp, definition)
        n, grid, block = params["n"], params["grid"], params["block"]
        first = cp.empty(n - 1, dtype=cp.int64)
        second = cp.empty(n - 1, dtype=cp.int64)
        want = prime_factor_sums(n)
        args_first, args_second = (first, np.int64(n)), (second, np.int64(n))
        if name.startswith("prime_factor_sum"):
            timing = run.time_device(lambda: kernel((grid,), (block,), args_first))
            return finish(timing, cp.asnumpy(first), want, "int64")
        side = cp.cuda.Stream(non_blocking=True)

        def both():
            if params["streams"] == 1:
                kernel((grid,), (block,), args_first)
                kernel((grid,), (block,), args_second)
                return
            fork = run.stream.record()
            side.wait_event(fork)
            kernel((grid,), (block,), args_first)
            with side:
                kernel((grid,), (block,), args_second)
            run.stream.wait_event(side.record())

        timing = run.time_device(both)
        result = finish(timing, cp.asnumpy(first), want, "int64")
        if result["check"]["status"] == "ok":
            result["check"] = check(cp.asnumpy(second), want, "int64")
        return result

    if name.startswith("matmul"):
        kernel = make_kernel(cp, definition)
        m, n, k = params["m"], params["n"], params["k"]
        grid, block = tuple(params["grid"]), tuple(params["block"])
        c = cp.empty((m, n), dtype=cp.float32)
        args = (dev["a"], dev["b"], c, np.int32(m), np.int32(n), np.int32(k))
        timing = run.time_device(lambda: kernel(grid, block, args))
        want = host["a"].astype(np.float64) @ host["b"].astype(np.float64)
        return finish(timing, cp.asnumpy(c), want, "float32")

    if name.startswith("lazy_chain"):
        # CuPy runs the chain eagerly: one kernel and one temporary per operator.
        operations = params["operations"]

        def chain(a, b):
            value = (a - b) * (a + b)
            if operations > 3:
                value = value - a
            if operations > 4:
                value = value * b
            return value

        timing = run.time_device(lambda: out.update(z=chain(dev["x"], dev["y"])))
        return finish(timing, cp.asnumpy(out["z"]), chain(host["x"], host["y"]), "float32")

    if name.startswith("lazy_scalar_loop"):
        updates = params["updates"]

        def loop(start):
            value = start
            for step in range(updates):
                value = value * (1.0 - 1e-4 * step) + 1e-3 * step
            return value

        timing = run.time_device(lambda: out.update(z=loop(dev["x"])))
        return finish(timing, cp.asnumpy(out["z"]), loop(host["x"]), "float32")

    if name.startswith("launch_overhead") and record["kernel_class"] == "routine":
        calls, x, y = params["calls"], dev["x"], dev["y"]

        def adds():
            for _ in range(calls):
                out["r"] = cp.add(x, y)

        timing = run.time_device(adds, calls)
        return finish(timing, cp.asnumpy(out["r"]), host["x"] + host["y"], "float32")

    if name.startswith("launch_overhead"):
        kernel = make_kernel(cp, definition)
        calls = params["calls"]
        x, y = dev["x"], dev["y"]
        if record["kernel_class"] == "ElementwiseKernel":
            def batch():
                for _ in range(calls):
                    out["r"] = kernel(x, y)
            want = host["x"] + host["y"]
        elif record["kernel_class"] == "ReductionKernel":
            def batch():
                for _ in range(calls):
                    out["r"] = kernel(x)
            want = [np.sum(host["x"].astype(np.float64))]
        else:
            grid, block, n = params["grid"], params["block"], np.int32(x.size)

            def batch():
                out["r"] = cp.empty_like(x)
                for _ in range(calls):
                    kernel((grid,), (block,), (x, y, out["r"], n))
            want = host["x"] + host["y"]
        timing = run.time_device(batch, calls)
        return finish(timing, cp.asnumpy(out["r"]), want, "float32")

    if name.startswith("pool_allocate_free"):
        size, pairs = params["bytes"], params["pairs"]

        def pairs_run():
            for _ in range(pairs):
                run.pool.malloc(size)  # dropped at once: back to the pool

        for _ in range(run.warmup):
            pairs_run()
        us = []
        for _ in range(run.repeat):
            t0 = time.perf_counter()
            pairs_run()
            us.append((time.perf_counter() - t0) * 1e6 / pairs)
        return {"host_us_per_call": statistics.median(us), "samples": run.repeat,
                "check": {"status": "-"}}
    return None


def fused_workload(run, record, host, dev, out, finish):
    """kiln::fuse's rows beside cupy.fuse of the same functions."""
    cp = run.cupy

    def squared_diff(a, b):
        return (a - b) * (a - b)

    def sum_of_products(a, b):
        return cp.sum(a * b, axis=-1)

    def mean_squared_error(a, b):
        return cp.mean((a - b) * (a - b))

    def sum_squared_error_over(a, b, n):
        return cp.sum((a - b) * (a - b)) / n

    def add_pair(a, b):
        return a + b

    name = full_size_name(record)
    x, y = dev["x"], dev["y"]
    if name.startswith("fuse_squared_diff"):
        fused = cp.fuse(kernel_name="squared_diff")(squared_diff)
        timing = run.time_device(lambda: out.update(r=fused(x, y)))
        want = (host["x"] - host["y"]) * (host["x"] - host["y"])
        return finish(timing, cp.asnumpy(out["r"]), want, "float32")
    if name.startswith("fuse_sum_of_products"):
        fused = cp.fuse(kernel_name="sum_of_products")(sum_of_products)
        timing = run.time_device(lambda: out.update(r=fused(x, y)))
        want = np.sum(host["x"].astype(np.float64) * host["y"].astype(np.float64), axis=-1)
        return finish(timing, cp.asnumpy(out["r"]), want, "float32")
    if name.startswith("fuse_mse"):
        want = np.mean((host["x"] - host["y"]) ** 2)
        fused = cp.fuse(kernel_name="mse")(mean_squared_error)
        try:
            fused(x, y)
            call = lambda: out.update(r=fused(x, y))  # noqa: E731
        except Exception:  # cupy.fuse without mean: the sum, then the division in its post-map
            fused = cp.fuse(kernel_name="mse")(sum_squared_error_over)
            n = float(x.size)
            call = lambda: out.update(r=fused(x, y, n))  # noqa: E731
        timing = run.time_device(call)
        return finish(timing, [float(out["r"])], [want], "float64")
    fused = cp.fuse(kernel_name="add")(add_pair)
    calls = record["params"]["calls"]

    def batch():
        for _ in range(calls):
            out["r"] = fused(x, y)
    timing = run.time_device(batch, calls)
    return finish(timing, cp.asnumpy(out["r"]), host["x"] + host["y"], "float32")


# --- two devices ---------------------------------------------------------------------------------

TWO_DEVICE_ROWS = ("peer_", "mse_2dev_", "mse_1dev_", "allreduce_2dev_")


def enable_peer_access(cp):
    """Each of devices 0 and 1 reaches the other's memory where it can, as kiln's rows do."""
    runtime = cp.cuda.runtime
    if not (runtime.deviceCanAccessPeer(0, 1) and runtime.deviceCanAccessPeer(1, 0)):
        return False
    for device, peer in ((0, 1), (1, 0)):
        with cp.cuda.Device(device):
            try:
                runtime.deviceEnablePeerAccess(peer)
            except runtime.CUDARuntimeError:  # already enabled
                pass
    return True


def time_two_devices(run, enqueue, calls=1):
    """Times `enqueue`, which queues work on devices 0 and 1, by events on device 0's stream:
    device 1's stream waits for each sample's start and device 0's for device 1's end, so that a
    sample spans the work of both (kiln's method)."""
    cp = run.cupy
    first, second = run.stream_of(0), run.stream_of(1)

    def sample():
        second.wait_event(first.record())
        enqueue()
        with cp.cuda.Device(1):
            done = second.record()
        first.wait_event(done)
    return run.time_device(sample, calls)


def two_device_workload(run, record, host, dev, out, finish):
    """kiln's rows on two devices, where CuPy has the operation: copies from device 0 to 1
    (MemoryPointer.copy_from_device_async, ndarray.copy under Device(1), and
    runtime.memcpyPeerAsync beside the vendor row), the MSE with half of each input on each device
    (eager, cp.mean((a - b) ** 2) on each half) and on one, and all_reduce through
    NcclCommunicator.initAll in groupStart/groupEnd. None for the NCCL-direct rows."""
    cp = run.cupy
    name, params = full_size_name(record), record.get("params") or {}
    if cp.cuda.runtime.getDeviceCount() < 2:
        print(f"{name}: skipped, CuPy sees fewer than 2 GPUs", file=sys.stderr)
        return None
    if name.endswith("_nccl_direct"):
        return None
    enable_peer_access(cp)

    if name.startswith("peer_"):
        count, pairs = int(record["size"]), params["pairs"]
        sources = [cp.arange(k, k + count, dtype=cp.float32) for k in range(pairs)]
        with cp.cuda.Device(1):
            targets = [cp.full(count, -1, dtype=cp.float32) for _ in range(pairs)]
        turn = [0]

        def next_pair():
            k = turn[0] % pairs
            turn[0] += 1
            return k

        stream = run.stream_of(1)
        if name.startswith("peer_copyto_"):
            def copy():
                k = next_pair()
                targets[k].data.copy_from_device_async(sources[k].data, sources[k].nbytes, stream)
        elif name.startswith("peer_to_device_"):
            def copy():
                out.pop("r", None)  # back to the pool first, as kiln's row does
                k = next_pair()
                out["r"] = sources[k].copy()
        else:
            def copy():
                k = next_pair()
                cp.cuda.runtime.memcpyPeerAsync(targets[k].data.ptr, 1, sources[k].data.ptr, 0,
                                                sources[k].nbytes, stream.ptr)
        timing = run.time_device(copy, device=1)
        k = (turn[0] - 1) % pairs
        got = out["r"] if "r" in out else targets[k]
        return finish(timing, cp.asnumpy(got), cp.asnumpy(sources[k]), "float32")

    if name.startswith("mse_"):
        x, y = dev["x"], dev["y"]
        want = np.mean((host["x"] - host["y"]) ** 2)
        if name.startswith("mse_1dev_"):
            timing = run.time_device(lambda: out.update(r=cp.mean((x - y) ** 2)))
            return finish(timing, [float(out["r"])], [want], "float64")
        half, total = params["half"], x.size
        x0, y0 = x[:half], y[:half]
        with cp.cuda.Device(1):
            x1, y1 = cp.asarray(host["x"][half:]), cp.asarray(host["y"][half:])
        combine = make_kernel(cp, params["combine"])
        w0, w1 = half / total, (total - half) / total
        second = run.stream_of(1)

        def split():
            with cp.cuda.Device(1), second:
                out["m1"] = cp.mean((x1 - y1) ** 2)
            m0 = cp.mean((x0 - y0) ** 2)
            # CuPy orders no copy between devices' streams: device 0's waits for device 1's mean.
            with cp.cuda.Device(1):
                done = second.record()
            run.stream.wait_event(done)
            out["r"] = combine(m0, out["m1"].copy(), w0, w1)

        timing = time_two_devices(run, split)
        return finish(timing, [float(out["r"])], [want], "float64")

    from cupy.cuda import nccl
    if run.nccl_comms is None:
        run.nccl_comms = nccl.NcclCommunicator.initAll([0, 1])
    comms = run.nccl_comms
    count, calls = int(record["size"]), params["calls_per_sample"]
    ins, outs = [], []
    for device in (0, 1):
        with cp.cuda.Device(device):
            ins.append(cp.arange(device, device + count, dtype=cp.float32))
            outs.append(cp.full(count, -1, dtype=cp.float32))

    def all_reduces():
        for _ in range(calls):
            nccl.groupStart()
            for device in (0, 1):
                with cp.cuda.Device(device):
                    comms[device].allReduce(ins[device].data.ptr, outs[device].data.ptr, count,
                                            nccl.NCCL_FLOAT32, nccl.NCCL_SUM,
                                            run.stream_of(device).ptr)
            nccl.groupEnd()

    timing = time_two_devices(run, all_reduces, calls)
    prefix = min(count, 1 << 24)
    want = cp.asnumpy(ins[0][:prefix]) + cp.asnumpy(ins[1][:prefix])
    result = finish(timing, cp.asnumpy(outs[0][:prefix]), want, "float32")
    if result["check"]["status"] == "ok":
        result["check"] = check(cp.asnumpy(outs[1][:prefix]), want, "float32")
    return result


# --- first call: cold, disk-cache hit (a child process), memory-cache hit ------------------------

FIRST_CALL_CLASSES = {"ElementwiseKernel": "elementwise", "ReductionKernel": "reduction",
                      "RawKernel": "raw"}


def first_call(cp, definition, nonce, x, y):
    preamble = f"// cupy_compare first call {nonce}\n"
    kernel = make_kernel(cp, definition, preamble)
    if definition["class"] == "ElementwiseKernel":
        kernel(x, y)
    elif definition["class"] == "ReductionKernel":
        kernel(x)
    else:
        kernel(((x.size + 255) // 256,), (256,), (x, y, cp.empty_like(x), np.int32(x.size)))


def timed_first_call(cp, definition, nonce, x, y):
    t0 = time.perf_counter()
    first_call(cp, definition, nonce, x, y)
    seconds = time.perf_counter() - t0
    cp.cuda.Device().synchronize()
    return seconds


def first_call_child(definition_json, nonces):
    import cupy as cp
    definition = json.loads(definition_json)
    x = cp.ones(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    timed_first_call(cp, definition, nonces[0], x, y)
    for nonce in nonces[1:]:
        print(f"{timed_first_call(cp, definition, nonce, x, y):.9g}")


def first_calls(run, record, cold_count):
    """CuPy's cold, disk and memory figures for the class of one kiln first-call record."""
    cp = run.cupy
    definition = record["kernel"]
    x = cp.ones(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    stamp = f"{os.getpid()}-{time.monotonic_ns()}"
    nonces = [f"{stamp}-{i}" for i in range(cold_count + 1)]
    timed_first_call(cp, definition, nonces[0], x, y)
    cold = [timed_first_call(cp, definition, nonce, x, y) for nonce in nonces[1:]]
    memory = [timed_first_call(cp, definition, nonces[1 + i % cold_count], x, y)
              for i in range(run.repeat)]
    output = subprocess.run(
        [sys.executable, __file__, "--first-call-child", json.dumps(definition), ",".join(nonces)],
        check=True, capture_output=True, text=True).stdout
    disk = [float(line) for line in output.split()]

    def figures(seconds):
        return {"host_us_per_call": statistics.median(seconds) * 1e6, "samples": len(seconds),
                "check": {"status": "-"}}

    return {"cold": figures(cold), "disk": figures(disk), "memory": figures(memory)}


# --- the combined table ------------------------------------------------------------------------

def ratio(a, b):
    return a / b if a and b else None


def combined_rows(kiln, cupy_results, kiln_copy, cupy_copy):
    rows = []
    for record in kiln["workloads"]:
        theirs = cupy_results.get(record["name"])
        if theirs is None:
            continue
        row = {"name": record["name"], "size": record["size"], "bound": record["bound"],
               "kiln": {key: record.get(key) for key in (
                   "gpu_ms", "host_us_per_call", "gbps", "copy_fraction", "kokkos_ms",
                   "speedup_over_kokkos", "peak_bytes")},
               "cupy": dict(theirs)}
        row["kiln"]["check"] = record["check"]["status"]
        row["cupy"]["check"] = theirs.get("check", {}).get("status", "-")
        gpu_ms = theirs.get("gpu_ms")
        if gpu_ms and record["bytes"]:
            row["cupy"]["gbps"] = record["bytes"] / (gpu_ms * 1e-3) / 1e9
            row["cupy"]["copy_fraction"] = row["cupy"]["gbps"] / cupy_copy if cupy_copy else None
        if gpu_ms and record.get("kokkos_ms"):
            row["cupy"]["speedup_over_kokkos"] = record["kokkos_ms"] / gpu_ms
        # Above 1: kiln is faster (or smaller).
        row["gpu_ratio"] = ratio(gpu_ms, record.get("gpu_ms"))
        row["host_ratio"] = ratio(theirs.get("host_us_per_call"), record.get("host_us_per_call"))
        row["memory_ratio"] = ratio(theirs.get("peak_bytes"), record.get("peak_bytes"))
        rows.append(row)
    return rows


def fmt(value, pattern="{:.4g}"):
    return "-" if value is None else pattern.format(value)


def markdown(kiln, cupy_info, rows, kiln_copy, cupy_copy):
    system = kiln["system"]
    lines = [
        f"# kiln and CuPy on {system['device']} ({system['date']})",
        "",
        f"kiln {system['kiln_version']} ({system['backend']}, {system['compiler']}); "
        f"CuPy {cupy_info['version']} (CUDA runtime {cupy_info['runtime']}); driver "
        f"{system['driver']}. Kokkos reference: {system['kokkos_execution_space']}, "
        f"{system['kokkos_concurrency']} thread(s).",
        f"Device-to-device copy: kiln {fmt(kiln_copy, '{:.1f}')} GB/s, CuPy "
        f"{fmt(cupy_copy, '{:.1f}')} GB/s (each run's own, the 100% of its % copy column).",
        "Ratios are CuPy / kiln: above 1, kiln is faster (or uses less memory).",
        "",
        "| workload | size | kiln GPU ms | CuPy GPU ms | GPU ratio | kiln host µs | CuPy host µs "
        "| host ratio | kiln % copy | CuPy % copy | kiln vs Kokkos | CuPy vs Kokkos "
        "| kiln peak MiB | CuPy peak MiB | checks |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|",
    ]
    for row in rows:
        k, c = row["kiln"], row["cupy"]

        def percent(fraction):
            return fmt(fraction * 100 if fraction is not None else None, "{:.1f}")

        def mib(value):
            return fmt(value / 2**20 if value is not None else None, "{:.1f}")

        lines.append(
            f"| {row['name']} | {row['size']} | {fmt(k['gpu_ms'])} | {fmt(c.get('gpu_ms'))} "
            f"| {fmt(row['gpu_ratio'], '{:.2f}')} | {fmt(k['host_us_per_call'])} "
            f"| {fmt(c.get('host_us_per_call'))} | {fmt(row['host_ratio'], '{:.2f}')} "
            f"| {percent(k['copy_fraction'])} | {percent(c.get('copy_fraction'))} "
            f"| {fmt(k['speedup_over_kokkos'], '{:.1f}x')} "
            f"| {fmt(c.get('speedup_over_kokkos'), '{:.1f}x')} | {mib(k['peak_bytes'])} "
            f"| {mib(c.get('peak_bytes'))} | {k['check']} / {c['check']} |")
    return "\n".join(lines) + "\n"


# --- main --------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="?", help="kiln-bench's results file (JSON)")
    parser.add_argument("--filter", default="", help="only workloads whose name matches REGEX")
    parser.add_argument("--repeat", type=int, help="timed runs (default: kiln-bench's)")
    parser.add_argument("--warmup", type=int, help="untimed runs first (default: kiln-bench's)")
    parser.add_argument("--first-call-child", nargs=2, metavar=("DEFINITION", "NONCES"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.first_call_child:
        first_call_child(args.first_call_child[0], args.first_call_child[1].split(","))
        return 0
    if not args.results:
        parser.error("the results file of kiln-bench is required")

    # CuPy's own compile cache for this run, inherited by the first-call child, so that cold is
    # cold and disk hits come from this run.
    cache = tempfile.TemporaryDirectory(prefix="cupy-compare-cache-")
    os.environ["CUPY_CACHE_DIR"] = cache.name
    os.environ.pop("CUPY_CACHE_IN_MEMORY", None)
    import cupy as cp

    path = Path(args.results)
    kiln = json.loads(path.read_text())
    if not kiln["run"]["gpu"]:
        print(f"{path} is from a run without a GPU ({kiln['run']['no_gpu_reason']}): nothing to "
              "compare")
        return 0
    device_name = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"].decode()
    if device_name != kiln["system"]["device"]:
        print(f"warning: kiln ran on {kiln['system']['device']}, CuPy runs on {device_name}",
              file=sys.stderr)
    cupy_info = {"version": cp.__version__, "device": device_name,
                 "runtime": cp.cuda.runtime.runtimeGetVersion(),
                 "driver": cp.cuda.runtime.driverGetVersion()}
    run = Run(cp, args.repeat or kiln["run"]["repeat"], args.warmup or kiln["run"]["warmup"])
    pattern = re.compile(args.filter)
    records = [r for r in kiln["workloads"]
               if pattern.search(r["name"]) or r["name"] == "copy_d2d_f32_1GiB"]
    inputs = Inputs(records)
    results = {}
    cold_count = min(run.repeat, 10)
    with run.stream:
        for index, record in enumerate(records):
            name = record["name"]
            print(f"[{index + 1}/{len(records)}] {name}", file=sys.stderr, flush=True)
            try:
                if name.startswith("first_call_cold_"):
                    for level, figures in first_calls(run, record, cold_count).items():
                        results[name.replace("_cold_", f"_{level}_")] = figures
                elif not name.startswith(("first_call_", "compile_")):
                    figures = run_workload(run, inputs, record)
                    if figures is not None:
                        results[name] = figures
            except Exception as error:  # one failed workload must not end the comparison
                results[name] = {"check": {"status": "ERROR", "detail": repr(error)}}
            inputs.done_with(index)

    kiln_copy = kiln.get("copy_gbps")
    cupy_copy = None
    copy = results.get("copy_d2d_f32_1GiB")
    if copy and copy.get("gpu_ms"):
        cupy_copy = 2 * (1 << 28) * 4 / (copy["gpu_ms"] * 1e-3) / 1e9
    rows = combined_rows(kiln, results, kiln_copy, cupy_copy)
    stem = path.with_suffix("")
    cupy_out = {"format": "cupy_compare results, version 1", "cupy": cupy_info,
                "copy_gbps": cupy_copy, "run": {"repeat": run.repeat, "warmup": run.warmup},
                "workloads": results}
    Path(f"{stem}-cupy.json").write_text(json.dumps(cupy_out, indent=2) + "\n")
    combined = {"format": "kiln and CuPy combined, version 1", "system": kiln["system"],
                "cupy": cupy_info, "copy_gbps": {"kiln": kiln_copy, "cupy": cupy_copy},
                "workloads": rows}
    Path(f"{stem}-combined.json").write_text(json.dumps(combined, indent=2) + "\n")
    table = markdown(kiln, cupy_info, rows, kiln_copy, cupy_copy)
    Path(f"{stem}-combined.md").write_text(table)
    print(table)
    print(f"wrote {stem}-cupy.json, {stem}-combined.json and {stem}-combined.md")
    failed = [name for name, r in results.items()
              if r.get("check", {}).get("status") in ("FAIL", "ERROR")]
    if failed:
        print(f"CuPy failed its check or did not run: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
