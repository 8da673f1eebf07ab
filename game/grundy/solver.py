"""Sprague-Grundy values of octal games: the plain reference and the fast incremental solver.

The solver picks its method per game: a compiled dense mex (O(n) per heap when heaps split),
or the rare/common ("sparse space") method when a parity mask makes the values of most heaps
predictable in class; see docs/grundy.md for the method and the figures.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from game.grundy.codes import OctalGame
from game.grundy.kernels import dense_extend, rarecommon_extend
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


@dataclass(frozen=True)
class Mask:
    """Rare/common classes: heap n is common when parity(G(n) & bits) == (slope*n + offset) % 2."""

    bits: int
    slope: int
    offset: int


def _moves(game: OctalGame, bit: int) -> np.ndarray:
    return np.array(game.removals(bit), np.int64)


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


def _parity(x: np.ndarray) -> np.ndarray:
    parity = np.zeros(x.shape, np.int64)
    x = x.copy()
    while x.any():
        parity ^= x & 1
        x >>= 1
    return parity


def rare_heaps(values: np.ndarray, mask: Mask) -> np.ndarray:
    """The heaps n >= 1 that are rare under `mask`."""
    n = np.arange(values.size)
    parity = _parity(values.astype(np.int64) & mask.bits)
    rare = parity != (mask.slope * n + mask.offset) % 2
    rare[0] = False
    return np.flatnonzero(rare)


def choose_mask(game: OctalGame, values: np.ndarray) -> tuple[Mask, int]:
    """The mask (and its rare count) leaving the fewest rare heaps among `values`."""
    top = 2
    while top <= int(values.max(initial=0)):
        top *= 2
    # Rare counts only depend on how often each value sits on even and odd heaps.
    heaps = values[1:].astype(np.int64)
    odd = np.arange(1, values.size) % 2
    counts = np.stack(
        [np.bincount(heaps[odd == side], minlength=top) for side in (0, 1)]
    )  # counts[heap parity, value]
    value_range = np.arange(top)
    best: tuple[int, Mask] | None = None
    for bits in range(1, top):
        parity = _parity(value_range & bits)
        for slope, offset in mask_options(game):
            rare = 0
            for side in (0, 1):
                common_class = (slope * side + offset) % 2
                rare += int(counts[side][parity != common_class].sum())
            if best is None or rare < best[0]:
                best = (rare, Mask(bits, slope, offset))
    assert best is not None
    return best[1], best[0]


class Solver:
    """G(0..n) for one octal game, extended on demand and never recomputed."""

    def __init__(self, game: OctalGame) -> None:
        if game.nim:
            raise ValueError("nim has G(n) = n; it needs no solver")
        self.game = game
        self.values = np.zeros(1024, np.int32)
        self.count = 1  # G(0) = 0
        self.take_all = _moves(game, 1)
        self.take_one = _moves(game, 2)
        self.take_two = _moves(game, 4)
        self.mask: Mask | None = None
        self.method = "dense"
        self._rare = np.zeros(0, np.int64)
        self._nrare = 0
        self._judge_at = PREFIX  # when dense, look for a mask again at this many heaps

    def extend_to(self, count: int, progress: Progress | None = None,
                  detail: str = "") -> np.ndarray:
        """Make G(0..count-1) known and return them (a view, not a copy); the progress line
        shows the rare/common split and `detail` (the caller's period candidate)."""
        if count > self.values.size:
            bigger = np.zeros(max(count, 2 * self.values.size), np.int32)
            bigger[: self.count] = self.values[: self.count]
            self.values = bigger
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
        return self.values[:count]

    def split(self) -> str:
        """The heaps computed so far as rare and common ones, or `dense`."""
        if self.method == "dense":
            return f"dense {self.count}"
        return f"rare {self._nrare} common {self.count - self._nrare}"

    def _step(self, stop: int) -> None:
        if self.take_two.size == 0:
            # Without splits the dense mex is already O(1) per heap.
            dense_extend(self.values, self.count, stop, self.take_all, self.take_one, self.take_two)
            self.count = stop
            return
        if self.method == "dense":
            stop = min(stop, self._judge_at)
            dense_extend(self.values, self.count, stop, self.take_all, self.take_one, self.take_two)
            self.count = stop
            if self.count >= self._judge_at:
                # Sparse space may show only after a while (0.376 needs a few thousand heaps).
                self._judge_at *= 2
                self._pick_method()
            return
        assert self.mask is not None
        reached, self._nrare = rarecommon_extend(
            self.values, self.count, stop, self.take_all, self.take_one, self.take_two,
            self.mask.bits, self.mask.slope, self.mask.offset, self._rare, self._nrare,
        )
        self.count = reached
        if self._nrare == self._rare.size:
            self._pick_method()

    def _pick_method(self) -> None:
        """Choose the mask from the values so far; go dense when rare heaps are not rare."""
        known = self.values[: self.count]
        mask, rare_count = choose_mask(self.game, known)
        if rare_count * RARE_SHARE > self.count:
            self.method = "dense"
            return
        self.method = "rare/common"
        self.mask = mask
        rare = rare_heaps(known, mask)
        # Room to grow before the mask is judged again.
        self._rare = np.zeros(max(2 * rare.size, 1024, self.count // RARE_SHARE), np.int64)
        self._rare[: rare.size] = rare
        self._nrare = rare.size
