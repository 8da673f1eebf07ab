"""Symmetric skirmish maps from a seed: each side gets the same ground, turned half a circle.

The shipped maps in maps/ were made with `rulefront generate skirmish`; any map it writes is
playable (both headquarters are joined by a path) and fair (point symmetry swaps the sides).
"""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

from game.data import Color, palette
from game.errors import UserError
from game.levels.maps import write_map

Cell = tuple[int, int]


def _color(name: str) -> Color:
    for color, entry in palette().items():
        if entry.name == name:
            return color
    raise KeyError(name)


def skirmish_cells(size: int, seed: int, heroes: int = 3) -> dict[Cell, str]:
    """Palette entry names by cell for a size x size map; red plays from the top-left."""
    if not 10 <= size <= 128:
        raise UserError(f"a skirmish map must be 10 to 128 cells a side, not {size}.")
    rng = random.Random(seed)
    for _attempt in range(200):
        cells = _attempt_map(size, rng, heroes)
        if _joined(cells, size):
            return cells
    raise UserError(f"no playable map found for size {size} and seed {seed}; try another seed.")


def _attempt_map(size: int, rng: random.Random, heroes: int) -> dict[Cell, str]:
    red: dict[Cell, str] = {}
    hq = (1, 1)
    red[hq] = "red hq"
    red[(2, 1)] = "red spawn"
    tower = (max(3, size // 4), max(3, size // 4))
    red[tower] = "red tower"
    for i in range(heroes):
        red[(2 + i, 3 + (i % 2))] = "red hero"
    reserved = set(red) | {(x + dx, y + dy) for x, y in red for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    half = size * size // 2
    features = []
    for _ in range(max(2, size * size // 25)):
        kind = rng.choice(["rock", "rock", "water"])
        x, y = rng.randrange(size), rng.randrange(size)
        length = rng.randint(2, max(3, size // 5))
        dx, dy = rng.choice([(1, 0), (0, 1), (1, 1), (1, -1)])
        for k in range(length):
            features.append(((x + dx * k, y + dy * k), kind))
    cells: dict[Cell, str] = {}
    for (x, y), kind in features:
        if not (0 <= x < size and 0 <= y < size) or y * size + x >= half:
            continue
        if (x, y) in reserved or _mirror((x, y), size) in reserved:
            continue
        cells[(x, y)] = kind
    cells.update(red)
    full = dict(cells)
    for cell, name in cells.items():
        full[_mirror(cell, size)] = name.replace("red", "blue")
    return full


def _mirror(cell: Cell, size: int) -> Cell:
    return (size - 1 - cell[0], size - 1 - cell[1])


def _joined(cells: dict[Cell, str], size: int) -> bool:
    """Whether every hero, tower and HQ of both sides can reach each other on foot."""
    solid = {c for c, n in cells.items() if n in ("rock", "water")}
    start = (1, 1)
    seen = {start}
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            cell = (x + dx, y + dy)
            if 0 <= cell[0] < size and 0 <= cell[1] < size and cell not in seen and cell not in solid:
                seen.add(cell)
                todo.append(cell)
    return all(c in seen for c, n in cells.items() if n not in ("rock", "water"))


def write_skirmish(path: Path, size: int, seed: int, name: str | None = None) -> None:
    cells = skirmish_cells(size, seed)
    colours = {cell: _color(entry) for cell, entry in cells.items()}
    sidecar = {"name": name or path.stem, "ruleset": "skirmish"}
    write_map(path, size, size, colours, sidecar)
