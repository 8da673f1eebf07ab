"""Ultimate periods of octal games, proven by the Guy-Smith criterion.

If G(n + p) = G(n) for all i <= n < 2i + p + t, where t is the most tokens a move may
remove and moves leave at most two heaps, then G(n + p) = G(n) for every n >= i.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.grundy import BYTES_PER_HEAP, available_memory
from game.grundy.codes import OctalGame
from game.grundy.kernels import z_function
from game.grundy.solver import Solver
from game.progress import Progress

FIRST_CHECK = 256


@dataclass(frozen=True)
class Period:
    """G(n + period) = G(n) for all n >= preperiod (heap 0 counts); `needed` heaps prove it."""

    preperiod: int
    period: int
    needed: int


def find_period(values: np.ndarray, max_take: int) -> Period | None:
    """The smallest period the Guy-Smith criterion proves from `values`, with its least preperiod.

    For each shift p, the Z-function of the reversed values gives how far back from the end
    G(n + p) = G(n) holds, hence the least preperiod i for p. The smallest proven p is the
    least ultimate period: the least period d divides any proven p and has a preperiod no
    larger, so its own window fits whenever p's does.
    """
    last = values.size - 1
    if last < 1:
        return None
    z = z_function(np.ascontiguousarray(values[::-1]))
    shifts = np.arange(1, last + 1)
    preperiods = last - z[1:] - shifts + 1
    needed = 2 * preperiods + 2 * shifts + max_take  # heaps 0..needed-1 make the window
    proven = np.flatnonzero(needed <= values.size)
    if proven.size == 0:
        return None
    j = int(proven[0])
    return Period(preperiod=int(preperiods[j]), period=int(shifts[j]), needed=int(needed[j]))


def _next_size(values: np.ndarray, max_take: int, limit: int) -> tuple[int, int | None]:
    """Grow geometrically, but jump to where the most promising period would be proven;
    also return that period (the candidate shown in the progress line)."""
    size = values.size
    needed, period = _promising(values, max_take)
    return min(limit, 2 * size, max(size + size // 16, needed)), period


def _promising(values: np.ndarray, max_take: int) -> tuple[int, int | None]:
    """Heaps needed to prove the cheapest period that has already repeated once, and it."""
    last = values.size - 1
    z = z_function(np.ascontiguousarray(values[::-1]))
    shifts = np.arange(1, last + 1)
    # A period worth waiting for has repeated at least once over the tail already.
    repeating = z[1:] >= shifts
    if not repeating.any():
        return 2 * values.size, None
    preperiods = last - z[1:] - shifts + 1
    needed = 2 * preperiods + 2 * shifts + max_take
    best = int(np.argmin(np.where(repeating, needed, np.iinfo(np.int64).max)))
    return int(needed[best]), int(shifts[best])


def memory_limit(memory: int | None = None) -> int:
    """The most heaps a proof may compute before it would need more memory than there is."""
    return max(FIRST_CHECK, (available_memory() if memory is None else memory) // BYTES_PER_HEAP)


@dataclass(frozen=True)
class Proof:
    """Outcome of a search for a period: `period` is None when none was proven in `computed` heaps."""

    period: Period | None
    computed: int
    values: np.ndarray
    candidate: int | None = None  # the period that looked most promising when it stopped


def prove_period(
    game: OctalGame, max_count: int, progress: Progress | None = None, solver: Solver | None = None
) -> Proof:
    """Compute more heaps until a period is proven or `max_count` heaps are known."""
    if game.nim:
        return Proof(None, 0, np.zeros(0, np.int32))
    solver = solver or Solver(game)
    size = min(max_count, max(FIRST_CHECK, solver.count))
    candidate: int | None = None
    while True:
        values = solver.extend_to(size, progress, "" if candidate is None
                                  else f"period candidate {candidate}")
        found = find_period(values, game.max_take)
        if found or size >= max_count:
            return Proof(found, size, values, candidate)
        size, candidate = _next_size(values, game.max_take, max_count)


def extend_by_period(values: np.ndarray, period: Period, count: int) -> np.ndarray:
    """G(0..count-1) from proven values and their period."""
    out = np.empty(count, np.int32)
    known = min(count, values.size)
    out[:known] = values[:known]
    if count > known:
        cycle = values[period.preperiod : period.preperiod + period.period]
        n = np.arange(known, count)
        out[known:] = cycle[(n - period.preperiod) % period.period]
    return out


@dataclass(frozen=True)
class Solution:
    """G(0..count-1), and the proven period when values past `computed` came from it."""

    values: np.ndarray
    computed: int
    period: Period | None

    @property
    def extended_by_period(self) -> bool:
        return self.computed < self.values.size


def solve(game: OctalGame, count: int, progress: Progress | None = None) -> Solution:
    """G(0..count-1): computed heap by heap until a period is proven, then read off the period."""
    if game.nim:
        return Solution(np.arange(count, dtype=np.int32), count, None)
    proof = prove_period(game, count, progress)
    solver_values = proof.values
    if proof.period is None:
        return Solution(solver_values[:count], count, None)
    return Solution(extend_by_period(solver_values, proof.period, count), proof.computed, proof.period)
