"""Keke level sets as a list of playable levels: what `solve --keke`, `keke run` and the bench
hand to the generic set solver (systems/ai/keke_set.py), which names no ruleset."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from game.levels.maps import GameMap
from game.rulesets.puzzle.keke import KekeLevel, level_map, read_set


class SetLevel(NamedTuple):
    """One level of a set: its id, the stored solution's moves (u d l r s), and its map."""

    path: Path
    level: KekeLevel

    @property
    def id(self) -> str:
        return self.level.id

    @property
    def solution(self) -> str:
        return self.level.solution

    def game_map(self) -> GameMap:
        return level_map(self.path, self.level)


def set_levels(path: str | Path) -> list[SetLevel]:
    """Every level of the Keke JSON set at `path`, in the set's order."""
    return [SetLevel(Path(path), level) for level in read_set(path)]
