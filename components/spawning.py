"""Minion waves: who spawns, how often, and the minions waiting to come back."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Spawner:
    """A headquarters' wave clock: turns until the next minion, and respawn countdowns.

    `respawns` holds one countdown per dead minion, as a tuple so the component stays a value.
    """

    every: int
    cap: int
    countdown: int
    respawn_after: int
    respawns: tuple[int, ...] = ()


@dataclass(slots=True)
class SpawnPoint:
    """A minion's home: the spawner entity it belongs to and the cell it came back to."""

    spawner: int
    x: int
    y: int
