"""The board key of puzzle and descent levels: equal boards, equal keys, for the solvers.

The World's own state hash (`World.state_key`, game/journal.py) tells states apart exactly,
entity by entity. A puzzle search needs a coarser key: two boards with the same things (by
kind, or a word's text) on the same cells are one state whichever entity stands where, and a
thing's facing counts only when the level can MOVE. So each (label, x, y, facing) gets a random
64-bit number and the board's key is their sum modulo 2**64 (a sum, not a xor, so two equal
things on one cell do not cancel out). The systems that move, turn, transform or destroy a
thing add the difference as they go (the push systems' `delta`), and the ruleset stores the
total in a journaled resource once per turn, so undo restores it with everything else; that
costs the solver nothing per state, where rehashing touched entities from the journal would.
"""

from __future__ import annotations

import random

from components import Facing, Kind, Word
from game.world import World

MASK = (1 << 64) - 1
FACINGS = {(0, -1): 0, (1, 0): 1, (0, 1): 2, (-1, 0): 3}


class Table:
    """Random numbers per (label, x, y, facing), drawn on first use from a fixed seed."""

    __slots__ = ("facing", "_numbers", "_rng")

    def __init__(self, facing: bool = True, seed: int = 0x5EED) -> None:
        self.facing = facing  # False when no MOVE can ever matter, so facing is not state
        self._numbers: dict[tuple[str, int, int, int], int] = {}
        self._rng = random.Random(seed)

    def number(self, label: str, x: int, y: int, facing: int) -> int:
        key = (label, x, y, facing if self.facing else 0)
        value = self._numbers.get(key)
        if value is None:
            value = self._numbers[key] = self._rng.getrandbits(64)
        return value


def label(world: World, entity: int) -> str:
    """What a search must tell apart: the kind, or the text of a word tile."""
    kind = world.get(entity, Kind).name
    if kind == "text":
        return "text:" + world.get(entity, Word).text
    return kind


def facing_index(world: World, entity: int) -> int:
    facing = world.try_get(entity, Facing)
    return 1 if facing is None else FACINGS.get((facing.dx, facing.dy), 1)
