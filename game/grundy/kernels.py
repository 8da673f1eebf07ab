"""Compiled inner loops for Grundy values: dense mex, rare/common mex, and period search.

Values live in Python `array` buffers as narrow as they fit (typecode B, H or I: 1, 2 or 4
bytes a value); a kernel that meets a value too wide stops there and the solver widens the
array (`widened`). Move lists and rare heaps are `array("q")`. The loops are C (kernels.c,
built once per machine by native.py, reached through ctypes with bare addresses, so a run
imports neither numpy nor numba); without a C compiler the same loops run under numba
(jit.py), on numpy views of the same buffers.
"""

from __future__ import annotations

import ctypes
import os
from array import array
from typing import Any

from game.grundy import native

# Each value width: its C suffix and the largest value it holds; the next wider typecode.
SUFFIX = {"B": "u8", "H": "u16", "I": "u32"}
LARGEST = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFF_FFFF}
WIDER = {"B": "H", "H": "I"}
# Why rarecommon_extend stopped before `stop`.
DONE, RARE_FULL, TOO_WIDE = 0, 1, 2


def _address(buffer: array) -> int:
    return buffer.buffer_info()[0]


def _checked(values: array) -> str:
    # The C side reads raw memory: an array of another type would be read wrongly.
    if values.typecode not in SUFFIX or values.itemsize != {"B": 1, "H": 2, "I": 4}[values.typecode]:
        raise TypeError(f"kernel wants values of typecode B, H or I, got {values.typecode!r}")
    return SUFFIX[values.typecode]


def _moves(buffers: tuple[array, ...]) -> list[int]:
    for b in buffers:
        if b.typecode != "q":
            raise TypeError(f"kernel wants moves of typecode q, got {b.typecode!r}")
    return [x for b in buffers for x in (_address(b), len(b))]


def _jit() -> Any:
    if os.environ.get(native.CHOICE) == "native":
        raise RuntimeError(f"{native.CHOICE}=native, but no C compiler could build kernels.c")
    from game.grundy import jit  # numba: imported only when the C library is unavailable

    return jit


def _view(buffer: array) -> Any:
    """A numpy view of an array's buffer, for the numba build (released before it returns)."""
    import numpy as np

    dtype = {"B": np.uint8, "H": np.uint16, "I": np.uint32, "q": np.int64}[buffer.typecode]
    return np.frombuffer(buffer, dtype) if len(buffer) else np.zeros(0, dtype)


def zeros(typecode: str, length: int) -> array:
    """An array of `length` zeros, filled a megabyte at a time (no second whole copy)."""
    out = array(typecode)
    grow(out, length)
    return out


_ZEROS = bytes(1 << 20)


def grow(buffer: array, length: int) -> None:
    """Append zeros until `buffer` holds `length` items (the allocator usually grows it in
    place, so no whole copy is made)."""
    missing = (length - len(buffer)) * buffer.itemsize
    while missing > 0:
        step = min(missing, len(_ZEROS))
        buffer.frombytes(_ZEROS if step == len(_ZEROS) else _ZEROS[:step])
        missing -= step


def widened(values: array) -> array:
    """The same values in the next wider typecode."""
    wider = zeros(WIDER[values.typecode], len(values))
    lib = native.load()
    if lib is None or not values:
        wider[:] = array(wider.typecode, values)
    else:
        lib.widen(_address(values), values.itemsize, _address(wider), wider.itemsize, len(values))
    return wider


def dense_extend(g: array, start: int, stop: int, take_all: array, take_one: array,
                 take_two: array) -> int:
    """Fill g[start:stop] by the mex over every move: O(n) per heap when the game splits.
    Return the heap reached: `stop`, or the first whose value needs a wider array."""
    suffix = _checked(g)
    lib = native.load()
    if lib is None:
        moves = [_view(m) for m in (take_all, take_one, take_two)]
        return int(_jit().dense_extend(_view(g), start, stop, *moves, LARGEST[g.typecode]))
    reached = int(getattr(lib, f"dense_extend_{suffix}")(
        _address(g), start, stop, *_moves((take_all, take_one, take_two))))
    if reached < 0:
        raise MemoryError("the Grundy kernel ran out of memory")
    return reached


def rarecommon_extend(g: array, start: int, stop: int, take_all: array, take_one: array,
                      take_two: array, mask: int, slope: int, offset: int, rare: array,
                      nrare: int) -> tuple[int, int, int]:
    """Fill g[start:stop] by the rare/common method; return (heap reached, rare count, why).

    Stops early when `rare` is full (RARE_FULL), so the caller can pick another mask or give
    it room, or when a value needs a wider array (TOO_WIDE); the method is explained in
    jit.py's rarecommon_extend.
    """
    suffix = _checked(g)
    if rare.typecode != "q":
        raise TypeError(f"kernel wants rare heaps of typecode q, got {rare.typecode!r}")
    lib = native.load()
    if lib is None:
        moves = [_view(m) for m in (take_all, take_one, take_two)]
        reached, count, why = _jit().rarecommon_extend(
            _view(g), start, stop, *moves, mask, slope, offset, _view(rare), nrare,
            LARGEST[g.typecode])
        return int(reached), int(count), int(why)
    io = (ctypes.c_int64 * 2)(nrare, DONE)
    reached = int(getattr(lib, f"rarecommon_extend_{suffix}")(
        _address(g), start, stop, *_moves((take_all, take_one, take_two)), mask, slope, offset,
        _address(rare), len(rare), ctypes.addressof(io)))
    if reached < 0:
        raise MemoryError("the Grundy kernel ran out of memory")
    return reached, int(io[0]), int(io[1])


def largest(g: array, count: int) -> int:
    """The largest of g[0:count] (0 when count is 0)."""
    suffix = _checked(g)
    lib = native.load()
    if lib is None:
        view = _view(g)[:count]
        return int(view.max()) if count else 0
    return int(getattr(lib, f"largest_{suffix}")(_address(g), count, 0))


def histogram(g: array, count: int, top: int) -> tuple[list[int], list[int]]:
    """How many heaps 1..count-1 of each parity (even, odd) hold each value below `top`."""
    suffix = _checked(g)
    counts = array("q", bytes(16 * top))
    lib = native.load()
    if lib is None:
        _jit().histogram(_view(g), count, _view(counts), top)
    else:
        getattr(lib, f"histogram_{suffix}")(_address(g), count, _address(counts), top)
    return counts[:top].tolist(), counts[top:].tolist()


def rare_heaps(g: array, count: int, mask: int, slope: int, offset: int,
               room: int) -> tuple[array, int]:
    """The heaps 1..count-1 rare under the mask, in an array of `room` slots (or as many as
    there are, if more), and how many there are."""
    suffix = _checked(g)
    lib = native.load()
    while True:
        out = array("q", bytes(8 * room))
        if lib is None:
            found = int(_jit().rare_heaps(_view(g), count, mask, slope, offset, _view(out)))
        else:
            found = int(getattr(lib, f"rare_heaps_{suffix}")(
                _address(g), count, mask, slope, offset, _address(out), room))
        if found <= room:
            return out, found
        room = found


def proven_period(g: array, size: int, max_take: int) -> tuple[int, int, int]:
    """(period, preperiod, heaps needed) of the smallest period the Guy-Smith criterion proves
    from g[0:size], or (0, 0, 0); see kernels.c."""
    suffix = _checked(g)
    lib = native.load()
    if lib is None:
        p, pre, needed = _jit().proven_period(_view(g), size, max_take)
        return int(p), int(pre), int(needed)
    out = (ctypes.c_int64 * 2)()
    p = int(getattr(lib, f"proven_period_{suffix}")(_address(g), size, max_take,
                                                   ctypes.addressof(out)))
    return (p, int(out[0]), int(out[1])) if p else (0, 0, 0)


def promising(g: array, size: int, max_take: int) -> tuple[int, int]:
    """(period, heaps needed) of the period that has repeated once at the end of g[0:size]
    and would be proven soonest, or (0, 0); see kernels.c."""
    suffix = _checked(g)
    lib = native.load()
    if lib is None:
        p, needed = _jit().promising(_view(g), size, max_take)
        return int(p), int(needed)
    out = (ctypes.c_int64 * 1)()
    p = int(getattr(lib, f"promising_{suffix}")(_address(g), size, max_take,
                                               ctypes.addressof(out)))
    return (p, int(out[0])) if p else (0, 0)
