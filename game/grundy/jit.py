"""The numba build of the Grundy kernels: the fallback when no C compiler built kernels.c.

Each kernel extends a values array in place from `start` to `stop`, so callers can run them
in chunks (for progress and period checks) without redoing work. Values are numpy views of the
solver's `array` buffers (uint8, uint16 or uint32: `vmax` is the widest value they hold); the
`seen` array is stamped with the heap number instead of cleared, and is kept at least twice
the largest value so that any XOR of two values, and the mex, fit in it.
"""

from __future__ import annotations

import os

import numpy as np

from game.grundy.native import cache_folders

if not os.access(cache_folders()[0].parent, os.W_OK) and "NUMBA_CACHE_DIR" not in os.environ:
    # cache=True writes beside the module; a wheel installed read-only keeps it per user.
    os.environ["NUMBA_CACHE_DIR"] = str(cache_folders()[1] / "numba")

from numba import njit  # noqa: E402  (reads NUMBA_CACHE_DIR when first imported)


@njit(cache=True)
def _table_size(values: np.ndarray, stop: int, floor: int) -> int:
    size = 64
    biggest = floor
    for n in range(stop):
        biggest = max(biggest, values[n])
    while size <= 2 * biggest + 1:
        size *= 2
    return size


@njit(cache=True)
def _grown(seen: np.ndarray) -> np.ndarray:
    bigger = np.full(2 * seen.size, -1, np.int64)
    bigger[: seen.size] = seen
    return bigger


@njit(cache=True)
def dense_extend(
    g: np.ndarray,
    start: int,
    stop: int,
    take_all: np.ndarray,
    take_one: np.ndarray,
    take_two: np.ndarray,
    vmax: int,
) -> int:
    """Fill g[start:stop] by the mex over every move: O(n) per heap when the game splits.
    Return the heap reached: stop, or the first whose value exceeds vmax (not written)."""
    seen = np.full(_table_size(g, start, 0), -1, np.int64)
    for n in range(start, stop):
        for k in take_all:
            if k == n:
                seen[0] = n
        for k in take_one:
            if n > k:
                seen[g[n - k]] = n
        for k in take_two:
            m = n - k
            for a in range(1, m // 2 + 1):
                seen[g[a] ^ g[m - a]] = n
        v = 0
        while seen[v] == n:
            v += 1
        if v > vmax:
            return n
        g[n] = v
        if 2 * v + 1 >= seen.size:
            seen = _grown(seen)
    return stop


@njit(cache=True)
def _parities(size: int, mask: int) -> np.ndarray:
    out = np.zeros(size, np.int8)
    for v in range(size):
        x = v & mask
        p = 0
        while x:
            p ^= 1
            x &= x - 1
        out[v] = p
    return out


@njit(cache=True)
def rarecommon_extend(
    g: np.ndarray,
    start: int,
    stop: int,
    take_all: np.ndarray,
    take_one: np.ndarray,
    take_two: np.ndarray,
    mask: int,
    slope: int,
    offset: int,
    rare: np.ndarray,
    nrare: int,
    vmax: int,
) -> tuple[int, int, int]:
    """Fill g[start:stop] by the rare/common ("sparse space") method; return (heap reached,
    nrare, why it stopped: 0 done, 1 `rare` full, 2 the value of the heap reached exceeds vmax).

    A heap n is common when parity(g[n] & mask) == (slope*n + offset) % 2, rare otherwise.
    The class is chosen so that common XOR common never lands in the class a common heap
    would have; so the common-class options of n come only from single-heap moves and pairs
    holding a rare heap (few), and only the other class needs a search over all pairs, which
    almost always finds each value after a few steps. Rare heaps are appended to `rare`; the
    kernel stops early when `rare` is full so the caller can pick another mask or go dense.
    """
    size = _table_size(g, start, 2 * mask + 1)
    seen = np.full(size, -1, np.int64)
    cls = _parities(size, mask)
    for n in range(start, stop):
        target = (slope * n + offset) & 1
        for k in take_all:
            if k == n:
                seen[0] = n
        for k in take_one:
            if n > k:
                seen[g[n - k]] = n
        for k in take_two:
            m = n - k
            for j in range(nrare):
                r = rare[j]
                if r >= m:
                    break
                seen[g[r] ^ g[m - r]] = n
        v = 0
        while seen[v] == n or cls[v] != target:
            v += 1
        need = 0
        for u in range(v):
            if seen[u] != n:
                need += 1
        if need:
            for k in take_two:
                m = n - k
                for a in range(1, m // 2 + 1):
                    x = g[a] ^ g[m - a]
                    if seen[x] != n:
                        seen[x] = n
                        if x < v:
                            need -= 1
                            if need == 0:
                                break
                if need == 0:
                    break
            if need:
                u = 0
                while seen[u] == n:
                    u += 1
                v = u
        if v > vmax:
            return n, nrare, 2
        g[n] = v
        if n >= 1 and cls[v] != target:  # heap 0 is never part of a split
            if nrare == rare.size:
                return n + 1, nrare, 1
            rare[nrare] = n
            nrare += 1
        if 2 * v + 1 >= seen.size:
            seen = _grown(seen)
            cls = _parities(seen.size, mask)
    return stop, nrare, 0


@njit(cache=True)
def histogram(g: np.ndarray, n: int, counts: np.ndarray, top: int) -> None:
    """counts[side * top + v]: heaps 1..n-1 of parity `side` with value v."""
    counts[:] = 0
    for h in range(1, n):
        counts[(h & 1) * top + g[h]] += 1


@njit(cache=True)
def rare_heaps(g: np.ndarray, n: int, mask: int, slope: int, offset: int, out: np.ndarray) -> int:
    """The heaps 1..n-1 rare under the mask, as many as fit into `out`; return how many."""
    count = 0
    for h in range(1, n):
        x = g[h] & mask
        p = 0
        while x:
            p ^= 1
            x &= x - 1
        if p != (slope * h + offset) & 1:
            if count < out.size:
                out[count] = h
            count += 1
    return count


# The rolling hashes of kernels.c, with the same modulus and base.
MOD = 2147483647
BASE = 1000003


@njit(cache=True)
def _same(g: np.ndarray, a: int, b: int, length: int) -> bool:
    for k in range(length):  # noqa: SIM110 - numba compiles this loop, not a generator
        if g[a + k] != g[b + k]:
            return False
    return True


@njit(cache=True)
def proven_period(g: np.ndarray, size: int, max_take: int) -> tuple[int, int, int]:
    """(period, preperiod, heaps needed) of the smallest proven period, or (0, 0, 0); the
    method is kernels.c's proven_period."""
    length = (size + max_take + 1) // 2
    s = size - length
    if s < 1:
        return 0, 0, 0
    top = np.int64(1)
    for _ in range(length):
        top = top * BASE % MOD
    target = np.int64(0)
    for k in range(length - 1, -1, -1):
        target = (target * BASE + np.int64(g[s + k]) % MOD) % MOD
    h = target
    for p in range(1, s + 1):
        w = s - p
        h = (h * BASE + np.int64(g[w]) % MOD) % MOD
        h = (h + MOD - np.int64(g[w + length]) % MOD * top % MOD) % MOD
        if h != target or not _same(g, w, s, length):
            continue
        n = s - 1
        while n - p >= 0 and g[n] == g[n - p]:
            n -= 1
        pre = n - p + 1
        return p, pre, 2 * pre + 2 * p + max_take
    return 0, 0, 0


@njit(cache=True)
def promising(g: np.ndarray, size: int, max_take: int) -> tuple[int, int]:
    """(period, heaps needed) of the repeating period cheapest to prove, or (0, 0); the method
    is kernels.c's promising."""
    best = 0
    best_needed = np.iinfo(np.int64).max
    skip = 0
    if size < 2:
        return 0, 0
    a = np.int64(g[size - 1]) % MOD
    b = np.int64(g[size - 2]) % MOD
    pw = 1
    p = 1
    while True:
        if a == b and p > skip and _same(g, size - 2 * p, size - p, p):
            n = size - p - 1
            while n - p >= 0 and g[n] == g[n - p]:
                n -= 1
            z = size - 1 - n
            needed = 2 * size - 2 * z + max_take
            if needed < best_needed:
                best = p
                best_needed = needed
            skip = (z + p) // 2
        if 2 * (p + 1) > size:
            break
        x = np.int64(g[size - p - 1]) % MOD
        a = (a * BASE + x) % MOD
        b = (b + MOD - x * pw % MOD) % MOD
        b = (b * BASE % MOD * BASE + np.int64(g[size - 2 * p - 1]) % MOD * BASE
             + np.int64(g[size - 2 * p - 2]) % MOD) % MOD
        pw = pw * BASE % MOD
        p += 1
    return best, best_needed


