"""Small maps drawn as text for tests: one character per cell, turned into a PNG map."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.data import palette
from game.engine import Engine
from game.levels.loader import load_engine
from game.levels.maps import write_map

# Characters of test maps -> palette entry names.
CHARS = {
    ".": "floor", "#": "rock", "~": "water", "%": "wall", "=": "block",
    "Q": "red hq", "q": "blue hq", "T": "red tower", "t": "blue tower",
    "H": "red hero", "h": "blue hero", "B": "red bulwark", "b": "blue bulwark",
    "D": "red duelist", "d": "blue duelist", "R": "red ranger", "r": "blue ranger",
    "S": "red sage", "s": "blue sage", "P": "red pathfinder", "p": "blue pathfinder",
    "X": "red spawn", "x": "blue spawn",
}


def color_of(name: str) -> tuple[int, int, int]:
    for color, entry in palette().items():
        if entry.name == name:
            return color
    raise KeyError(name)


def draw_map(path: Path, rows: list[str], sidecar: dict[str, Any] | None = None) -> Path:
    """Write `rows` (one string per row) as a PNG map, with an optional sidecar."""
    cells = {}
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char != ".":
                cells[(x, y)] = color_of(CHARS[char])
    write_map(path, len(rows[0]), len(rows), cells, sidecar)
    return path


def engine_for(tmp_path: Path, rows: list[str], sidecar: dict[str, Any] | None = None,
               seed: int = 0) -> Engine:
    return load_engine(draw_map(tmp_path / "test.png", rows, sidecar), seed=seed)
