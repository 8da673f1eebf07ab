"""Sprague-Grundy values of octal games: the plain reference and the fast incremental solver.

The solver picks its method per game: a compiled dense mex (O(n) per heap when heaps split),
or the rare/common ("sparse space") method when a parity mask makes the values of most heaps
predictable in class; see docs/grundy.md for the method and the figures. Values are kept in
an `array` as narrow as they fit (one byte a heap while every value is below 256).
"""

from __future__ import annotations

import time
from array import array
from typing import NamedTuple

from game.grundy import kernels
from game.grundy.codes import OctalGame
from game.progress import Progress

# Heaps computed densely before a rare/common mask is chosen from them.
PREFIX = 2048
# Rare/common pays while rare heaps stay below this share of all heaps.
RARE_SHARE = 8


def grundy_reference(game: OctalGame, n: int) -> list[int]:
    """G(0..n) by a direct mex over every move in plain Python: slow, obviously right."""
    if game.nim:
        return list(range(n + 1))
    g: list[int] = []
    for heap in range(n + 1):
        options: set[int] = set()
        for k, digit in enumerate(game.digits, start=1):
            if digit & 1 and heap == k:
                options.add(0)
            if digit & 2 and heap > k:
                options.add(g[heap - k])
            if digit & 4:
                rest = heap - k
                options.update(g[a] ^ g[rest - a] for a in range(1, rest // 2 + 1))
        mex = 0
        while mex in options:
            mex += 1
        g.append(mex)
    return g


class Mask(NamedTuple):
    """Rare/common classes: heap n is common when parity(G(n) & bits) == (slope*n + offset) % 2."""

    bits: int
    slope: int
    offset: int


def mask_options(game: OctalGame) -> list[tuple[int, int]]:
    """The (slope, offset) pairs for which common XOR common can never be a common value.

    Splitting heap n after taking k makes two heaps summing to n - k; their common classes
    XOR to slope*(n-k) % 2, which must differ from n's own class for every split k.
    """
    splits = game.removals(4)
    options = [(0, 1)]
    if splits and len({k % 2 for k in splits}) == 1:
        options.append((1, (1 + splits[0]) % 2))
    return options


def _walsh(counts: list[int]) -> list[int]:
    """w[bits] = sum over v of counts[v] * (-1)^parity(v & bits) (a Walsh-Hadamard transform)."""
    w = list(counts)
    half = 1
    while half < len(w):
        for start in range(0, len(w), 2 * half):
            for i in range(start, start + half):
                w[i], w[i + half] = w[i] + w[i + half], w[i] - w[i + half]
        half *= 2
    return w


def choose_mask(game: OctalGame, values: array, count: int | None = None) -> tuple[Mask, int]:
    """The mask (and its rare count) leaving the fewest rare heaps among the first `count`
    values (all of them by default); ties go to the smallest bits, then the first option."""
    count = len(values) if count is None else count
    top, biggest = 2, kernels.largest(values, count)
    while top <= biggest:
        top *= 2
    # Rare counts only depend on how often each value sits on even and odd heaps: the heaps
    # of one parity whose parity(v & bits) is 1 number (total - walsh[bits]) / 2.
    sides = kernels.histogram(values, count, top)
    totals = [sum(side) for side in sides]
    walsh = [_walsh(side) for side in sides]
    best: tuple[int, Mask] | None = None
    for bits in range(1, top):
        odd_parity = [(totals[side] - walsh[side][bits]) // 2 for side in (0, 1)]
        for slope, offset in mask_options(game):
            rare = 0
            for side in (0, 1):
                common_class = (slope * side + offset) % 2
                # Rare heaps are those whose parity is not the common class.
                rare += (odd_parity[side] if common_class == 0
                         else totals[side] - odd_parity[side])
            if best is None or rare < best[0]:
                best = (rare, Mask(bits, slope, offset))
    assert best is not None
    return best[1], best[0]


def rare_heaps(values: array, mask: Mask, count: int | None = None) -> list[int]:
    """The heaps 1 <= n < count that are rare under `mask`."""
    count = len(values) if count is None else count
    found, n = kernels.rare_heaps(values, count, mask.bits, mask.slope, mask.offset, 1024)
    return found[:n].tolist()


class Solver:
    """G(0..n) for one octal game, extended on demand and never recomputed."""

    def __init__(self, game: OctalGame) -> None:
        if game.nim:
            raise ValueError("nim has G(n) = n; it needs no solver")
        self.game = game
        self.values = array("B", bytes(1))  # G(0) = 0; as wide as the values need
        self.count = 1
        self.take_all = array("q", game.removals(1))
        self.take_one = array("q", game.removals(2))
        self.take_two = array("q", game.removals(4))
        self.mask: Mask | None = None
        self.method = "dense"
        self._rare = array("q")  # room for rare heaps; the first _nrare are filled
        self._nrare = 0
        self._judge_at = PREFIX  # when dense, look for a mask again at this many heaps

    def extend_to(self, count: int, progress: Progress | None = None, detail: str = "") -> array:
        """Make G(0..count-1) known and return them: the solver's own array (not a copy) when
        `count` is all it knows; the progress line shows the rare/common split and `detail`
        (the caller's period candidate)."""
        if count > len(self.values):
            kernels.grow(self.values, count)
        chunk = 4096
        while self.count < count:
            stop = min(count, self.count + chunk)
            started = time.perf_counter()
            self._step(stop)
            spent = time.perf_counter() - started
            # Aim for a few progress updates a second without paying per-call overhead.
            chunk = int(max(256, min(1 << 22, chunk * (0.25 / max(spent, 1e-4)))))
            if progress:
                progress.update(self.count, count, self.split() + (f", {detail}" if detail else ""))
        return self.values if count == len(self.values) else self.values[:count]

    def split(self) -> str:
        """The heaps computed so far as rare and common ones, or `dense`."""
        if self.method == "dense":
            return f"dense {self.count}"
        return f"rare {self._nrare} common {self.count - self._nrare}"

    def _step(self, stop: int) -> None:
        if self.take_two and self.method == "dense":
            stop = min(stop, self._judge_at)
        if not self.take_two or self.method == "dense":
            # Without splits the dense mex is already O(1) per heap.
            reached = kernels.dense_extend(self.values, self.count, stop, self.take_all,
                                           self.take_one, self.take_two)
            self.count = reached
            if reached < stop:
                self.values = kernels.widened(self.values)
            elif self.take_two and self.count >= self._judge_at:
                # Sparse space may show only after a while (0.376 needs a few thousand heaps).
                self._judge_at *= 2
                self._pick_method()
            return
        assert self.mask is not None
        reached, self._nrare, why = kernels.rarecommon_extend(
            self.values, self.count, stop, self.take_all, self.take_one, self.take_two,
            self.mask.bits, self.mask.slope, self.mask.offset, self._rare, self._nrare,
        )
        self.count = reached
        if why == kernels.TOO_WIDE:
            self.values = kernels.widened(self.values)
        elif why == kernels.RARE_FULL:
            # Judge again: a mask better than the first may show now (0.127's does), or dense.
            self._pick_method()

    def _pick_method(self) -> None:
        """Choose the mask from the values so far; go dense when rare heaps are not rare."""
        mask, rare_count = choose_mask(self.game, self.values, self.count)
        if rare_count * RARE_SHARE > self.count:
            self.method = "dense"
            return
        self.method = "rare/common"
        self.mask = mask
        # Room to grow before the array must be enlarged.
        self._rare, self._nrare = kernels.rare_heaps(
            self.values, self.count, mask.bits, mask.slope, mask.offset,
            max(2 * rare_count, 1024))

