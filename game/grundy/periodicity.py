"""Ultimate periods of octal games, proven by the Guy-Smith criterion.

If G(n + p) = G(n) for all i <= n < 2i + p + t, where t is the most tokens a move may
remove and moves leave at most two heaps, then G(n + p) = G(n) for every n >= i.
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

from game.grundy import BYTES_PER_HEAP, available_memory, kernels
from game.grundy.codes import OctalGame
from game.grundy.solver import Solver
from game.progress import Progress

FIRST_CHECK = 256


class Period(NamedTuple):
    """G(n + period) = G(n) for all n >= preperiod (heap 0 counts); `needed` heaps prove it."""

    preperiod: int
    period: int
    needed: int


def find_period(values: array, max_take: int) -> Period | None:
    """The smallest period the Guy-Smith criterion proves from `values`, with its least preperiod.

    The window of p, heaps i..2i+p+t, fits in `values` exactly when the last
    ceil((size + t) / 2) values each equal the value p heaps before, so the kernel looks for
    the first earlier copy of that tail (kernels.c, proven_period). The smallest proven p is
    the least ultimate period: the least period d divides any proven p and has a preperiod no
    larger, so its own window fits whenever p's does.
    """
    period, preperiod, needed = kernels.proven_period(values, len(values), max_take)
    return Period(preperiod, period, needed) if period else None


def _next_size(values: array, max_take: int, limit: int) -> tuple[int, int | None]:
    """Grow by half at most (the cheap check may then see the real period repeat before a
    doubling overshoots it: 0.16's spurious candidate 3 would carry it to 665 320 heaps), or
    straight to where the most promising period would be proven; also return that period
    (the candidate shown in the progress line)."""
    size = len(values)
    needed, period = _promising(values, max_take)
    return min(limit, size + size // 2, max(size + size // 64, needed)), period


def _promising(values: array, max_take: int) -> tuple[int, int | None]:
    """Heaps needed to prove the cheapest period that has already repeated once, and it."""
    period, needed = kernels.promising(values, len(values), max_take)
    return (needed, period) if period else (2 * len(values), None)


def memory_limit(memory: int | None = None) -> int:
    """The most heaps a proof may compute before it would need more memory than there is."""
    return max(FIRST_CHECK, (available_memory() if memory is None else memory) // BYTES_PER_HEAP)


class Proof(NamedTuple):
    """Outcome of a search for a period: `period` is None when none was proven in `computed` heaps."""

    period: Period | None
    computed: int
    values: array
    candidate: int | None = None  # the period that looked most promising when it stopped


def prove_period(
    game: OctalGame, max_count: int, progress: Progress | None = None, solver: Solver | None = None
) -> Proof:
    """Compute more heaps until a period is proven or `max_count` heaps are known."""
    if game.nim:
        return Proof(None, 0, array("B"))
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


def extend_by_period(values: array, period: Period, count: int) -> array:
    """G(0..count-1) from proven values and their period."""
    known = min(count, len(values))
    out = values[:known]
    if count > known:
        # Heap n >= preperiod has the value of heap preperiod + (n - preperiod) % period.
        start = (known - period.preperiod) % period.period
        cycle = values[period.preperiod : period.preperiod + period.period]
        turn = cycle[start:] + cycle[:start]
        whole, rest = divmod(count - known, period.period)
        out.extend(turn * whole)
        out.extend(turn[:rest])
    return out


class Solution(NamedTuple):
    """G(0..count-1), and the proven period when values past `computed` came from it."""

    values: array
    computed: int
    period: Period | None

    @property
    def extended_by_period(self) -> bool:
        return self.computed < len(self.values)


def solve(game: OctalGame, count: int, progress: Progress | None = None) -> Solution:
    """G(0..count-1): computed heap by heap until a period is proven, then read off the period."""
    if game.nim:
        return Solution(array("I" if count <= 1 << 32 else "Q", range(count)), count, None)
    proof = prove_period(game, count, progress)
    solver_values = proof.values
    if proof.period is None:
        return Solution(solver_values if len(solver_values) == count else solver_values[:count],
                        count, None)
    return Solution(extend_by_period(solver_values, proof.period, count), proof.computed, proof.period)
