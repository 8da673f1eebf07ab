"""Compiled inner loops for Grundy values: dense mex, rare/common mex and the Z-function.

Each kernel extends a values array in place from `start` to `stop`, so callers can run them
in chunks (for progress and period checks) without redoing work. Values are int32 arrays,
move lists int64 arrays. The loops are C (kernels.c, built once per machine by native.py);
without a C compiler the same loops run under numba (jit.py).
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

import numpy as np

from game.grundy import native


def _ptr(array: np.ndarray) -> int:
    return int(array.ctypes.data)


def _checked(array: np.ndarray, dtype: type) -> np.ndarray:
    # The C side reads raw memory: a wrong type or a strided view would be read wrongly.
    if array.dtype != dtype or not array.flags.c_contiguous:
        raise TypeError(f"kernel wants a contiguous {np.dtype(dtype)} array, got {array.dtype}")
    return array


def _jit() -> Any:
    if os.environ.get(native.CHOICE) == "native":
        raise RuntimeError(f"{native.CHOICE}=native, but no C compiler could build kernels.c")
    from game.grundy import jit  # numba: imported only when the C library is unavailable

    return jit


def dense_extend(g: np.ndarray, start: int, stop: int, take_all: np.ndarray,
                 take_one: np.ndarray, take_two: np.ndarray) -> None:
    """Fill g[start:stop] by the mex over every move: O(n) per heap when the game splits."""
    lib = native.load()
    if lib is None:
        _jit().dense_extend(g, start, stop, take_all, take_one, take_two)
        return
    moves = [_checked(m, np.int64) for m in (take_all, take_one, take_two)]
    status = lib.dense_extend(_ptr(_checked(g, np.int32)), start, stop,
                              *(x for m in moves for x in (_ptr(m), m.size)))
    if status:
        raise MemoryError("the Grundy kernel ran out of memory")


def rarecommon_extend(g: np.ndarray, start: int, stop: int, take_all: np.ndarray,
                      take_one: np.ndarray, take_two: np.ndarray, mask: int, slope: int,
                      offset: int, rare: np.ndarray, nrare: int) -> tuple[int, int]:
    """Fill g[start:stop] by the rare/common method; return (heap reached, rare count).

    Stops early when `rare` is full, so the caller can pick another mask or go dense; the
    method is explained in jit.py's rarecommon_extend.
    """
    lib = native.load()
    if lib is None:
        reached, count = _jit().rarecommon_extend(g, start, stop, take_all, take_one, take_two,
                                                  mask, slope, offset, rare, nrare)
        return int(reached), int(count)
    moves = [_checked(m, np.int64) for m in (take_all, take_one, take_two)]
    count = ctypes.c_int64(nrare)
    reached = lib.rarecommon_extend(_ptr(_checked(g, np.int32)), start, stop,
                                    *(x for m in moves for x in (_ptr(m), m.size)),
                                    mask, slope, offset, _ptr(_checked(rare, np.int64)),
                                    rare.size, ctypes.addressof(count))
    if reached < 0:
        raise MemoryError("the Grundy kernel ran out of memory")
    return int(reached), int(count.value)


def z_function(s: np.ndarray) -> np.ndarray:
    """z[i] = length of the longest common prefix of s and s[i:] (z[0] = len(s))."""
    lib = native.load()
    if lib is None:
        return _jit().z_function(s)
    values = np.ascontiguousarray(s, dtype=np.int32)
    z = np.zeros(values.size, np.int64)
    lib.z_function(_ptr(values), values.size, _ptr(z))
    return z
