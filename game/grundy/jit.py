"""The numba build of the Grundy kernels: the fallback when no C compiler built kernels.c.

Each kernel extends a values array in place from `start` to `stop`, so callers can run them
in chunks (for progress and period checks) without redoing work. Values are int32; the
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
) -> None:
    """Fill g[start:stop] by the mex over every move: O(n) per heap when the game splits."""
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
        g[n] = v
        if 2 * v + 1 >= seen.size:
            seen = _grown(seen)


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
) -> tuple[int, int]:
    """Fill g[start:stop] by the rare/common ("sparse space") method; return (stop reached, nrare).

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
        g[n] = v
        if n >= 1 and cls[v] != target:  # heap 0 is never part of a split
            if nrare == rare.size:
                return n + 1, nrare
            rare[nrare] = n
            nrare += 1
        if 2 * v + 1 >= seen.size:
            seen = _grown(seen)
            cls = _parities(seen.size, mask)
    return stop, nrare


@njit(cache=True)
def z_function(s: np.ndarray) -> np.ndarray:
    """z[i] = length of the longest common prefix of s and s[i:] (z[0] = len(s))."""
    n = s.size
    z = np.zeros(n, np.int64)
    if n == 0:
        return z
    z[0] = n
    left = 0
    right = 0
    for i in range(1, n):
        if i < right:
            z[i] = min(right - i, z[i - left])
        while i + z[i] < n and s[z[i]] == s[i + z[i]]:
            z[i] += 1
        if i + z[i] > right:
            left = i
            right = i + z[i]
    return z
