"""Where things are on the grid."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Position:
    """A cell: x is the column, y the row, both from the top-left, 0-based."""

    x: int
    y: int


@dataclass(slots=True)
class Height:
    """Stack level of a block or unit (0 = on the ground) for rulesets with stacking."""

    z: int


@dataclass(slots=True)
class Facing:
    """The direction a MOVE thing walks in, as a unit step."""

    dx: int
    dy: int
