"""NumPy port of kiln::random's streams (include/kiln/random.hpp documents them exactly), so that
bench/cupy_compare.py gives CuPy the very inputs kiln-bench gave kiln.

Element k of a draw with seed s is a pure function of (s, k): Philox4x32-10 of the counter
(k mod 2^32, k div 2^32, 0, 0) under the key (s mod 2^32, s div 2^32) gives two 64-bit words x and
y, from which uniform, normal and integer values are made. The port needs no fma: kiln-bench's
uniform draws start at 0 and its normal draws have mean 0, and then random.hpp's
fma(a, u, 0) is a single rounding of a * u, which NumPy's multiply also is.
"""
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

_MASK32 = np.uint64(0xFFFFFFFF)
_MULTIPLIER0 = np.uint64(0xD2511F53)
_MULTIPLIER1 = np.uint64(0xCD9E8D57)
_WEYL0 = 0x9E3779B9
_WEYL1 = 0xBB67AE85
_SHIFT32 = np.uint64(32)
_CHUNK = 1 << 21
_SIGNIFICAND_BITS = {np.dtype(np.float64): 53, np.dtype(np.float32): 24, np.dtype(np.float16): 11}
_TWO_PI = float.fromhex("0x1.921fb54442d18p+2")


def words(seed, start, count):
    """The words (x, y) of elements start .. start + count - 1, as two uint64 arrays."""
    index = np.arange(start, start + count, dtype=np.uint64)
    c0 = index & _MASK32
    c1 = index >> _SHIFT32
    c2 = np.zeros_like(index)
    c3 = np.zeros_like(index)
    key0 = seed & 0xFFFFFFFF
    key1 = (seed >> 32) & 0xFFFFFFFF
    for round_ in range(10):
        if round_ > 0:
            key0 = (key0 + _WEYL0) & 0xFFFFFFFF
            key1 = (key1 + _WEYL1) & 0xFFFFFFFF
        product0 = _MULTIPLIER0 * c0
        product1 = _MULTIPLIER1 * c2
        c0, c1, c2, c3 = ((product1 >> _SHIFT32) ^ c1 ^ np.uint64(key0), product1 & _MASK32,
                          (product0 >> _SHIFT32) ^ c3 ^ np.uint64(key1), product0 & _MASK32)
    return c0 | (c1 << _SHIFT32), c2 | (c3 << _SHIFT32)


def _multiply_high(a, b):
    """The high 64 bits of the 128-bit products a * b (uint64 arrays or scalars)."""
    a_lo, a_hi = a & _MASK32, a >> _SHIFT32
    b_lo, b_hi = b & _MASK32, b >> _SHIFT32
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    cross = (lo_lo >> _SHIFT32) + (hi_lo & _MASK32) + lo_hi
    return a_hi * b_hi + (hi_lo >> _SHIFT32) + (cross >> _SHIFT32)


def _uniform_chunk(seed, start, count, dtype, low, high):
    if low != 0:
        raise ValueError("philox.uniform: only low = 0 is ported (random.hpp's fma is then a "
                         "single rounding of the product)")
    bits = _SIGNIFICAND_BITS[dtype]
    x, _ = words(seed, start, count)
    u = (x >> np.uint64(64 - bits)).astype(np.float64) * 2.0 ** -bits
    return (high * u).astype(dtype)


def _normal_chunk(seed, start, count, dtype, mean, stddev):
    if mean != 0:
        raise ValueError("philox.normal: only mean = 0 is ported (random.hpp's fma is then a "
                         "single rounding of the product)")
    # NumPy's log and cos stand in for random.hpp's own (NumPy has no fma to port them with), so
    # values agree with kiln's to a few ulp, not bitwise.
    x, y = words(seed, start, count)
    u1 = (x >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    u2 = (y >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    z = np.sqrt(-2.0 * np.log(1.0 - u1)) * np.cos(_TWO_PI * u2)
    return (stddev * z).astype(dtype)


def _integers_chunk(seed, start, count, dtype, low, high):
    x, _ = words(seed, start, count)
    offset = _multiply_high(x, np.uint64(high - low)).astype(np.int64)
    return (offset + np.int64(low)).astype(dtype)


def _draw(chunk, seed, count, dtype, a, b):
    """count values of chunk(...) for elements 0 .. count - 1, in chunks over the host's threads
    (NumPy releases the GIL in its loops)."""
    dtype = np.dtype(dtype)
    out = np.empty(count, dtype=dtype)
    starts = range(0, count, _CHUNK)

    def fill(start):
        n = min(_CHUNK, count - start)
        out[start:start + n] = chunk(seed, start, n, dtype, a, b)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(fill, starts))
    return out


def uniform(count, low, high, seed, dtype):
    return _draw(_uniform_chunk, seed, count, dtype, low, high)


def normal(count, mean, stddev, seed, dtype):
    return _draw(_normal_chunk, seed, count, dtype, mean, stddev)


def integers(count, low, high, seed, dtype):
    return _draw(_integers_chunk, seed, count, dtype, low, high)
