"""Random descent levels: heightmaps with controlled slopes, kept only when solvable.

Each candidate falls from the start corner to the exit with a given steepness, gets random
bumps (walls the ball must push through or go round), and has every step between neighbours
capped at `slope`. The full solver must solve it; when the no-push solver cannot, the level is
labelled "needs a push". Levels are ranked by optimal length (easiest first) and written as
`.txt` heightmaps with a sidecar holding the star thresholds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import yaml

from game.engine import Engine
from game.errors import UserError
from game.levels.files import atomic_write
from game.levels.maps import GameMap
from game.rulesets.descent.level import heights_text
from systems.ai.solver import moves_text, solve


@dataclass
class Generated:
    heights: list[list[int]]
    moves: str
    needs_push: bool

    @property
    def length(self) -> int:
        return len(self.moves)

    def stars(self) -> dict[int, int]:
        """Most moves that still earn 3, 2 and 1 stars (3 stars = the optimal length)."""
        return {3: self.length, 2: math.ceil(self.length * 1.5), 1: self.length * 3}


def candidate(size: int, rng: random.Random, slope: int, bumps: float) -> list[list[int]]:
    top = max(2, size)
    span = 2 * size - 2
    heights = [[max(0, round(top * (1 - (x + y) / span)) + rng.randint(-2, 2))
                for x in range(size)] for y in range(size)]
    for _ in range(int(size * size * bumps)):
        x, y = rng.randrange(size), rng.randrange(size)
        heights[y][x] += 1
    heights[size - 1][size - 1] = 0
    for _ in range(size * 2):  # relax until no neighbour step is steeper than `slope`
        changed = False
        for y in range(size):
            for x in range(size):
                for nx, ny in ((x + 1, y), (x, y + 1)):
                    if nx < size and ny < size:
                        a, b = heights[y][x], heights[ny][nx]
                        if abs(a - b) > slope:
                            if a > b:
                                heights[y][x] = b + slope
                            else:
                                heights[ny][nx] = a + slope
                            changed = True
        if not changed:
            break
    return heights


def _engine(heights: list[list[int]], push: bool) -> Engine:
    size = len(heights)
    game_map = GameMap(Path("generated.txt"), size, size, [],
                       {"ruleset": "descent", "heights": heights, "push": push})
    return Engine.from_game_map(game_map)


def judge(heights: list[list[int]], max_states: int = 200_000) -> Generated | None:
    """Solve with pushing; None when it cannot be solved (or not within the state budget)."""
    full = solve(_engine(heights, True), None, "bfs", max_states)
    if not full.solved:
        return None
    plain = solve(_engine(heights, False), None, "bfs", max_states)
    return Generated(heights, moves_text(full.commands), not plain.solved)


def generate(size: int, count: int, seed: int, slope: int = 2, bumps: float = 0.25,
             tries: int | None = None) -> list[Generated]:
    if not 3 <= size <= 16:
        raise UserError(f"descent levels must be 3 to 16 cells a side, not {size}.")
    if count < 1:
        raise UserError("--count must be at least 1.")
    rng = random.Random(seed)
    found: dict[str, Generated] = {}
    for _ in range(tries or count * 40):
        heights = candidate(size, rng, slope, bumps)
        key = heights_text(heights)
        if key in found:
            continue
        level = judge(heights)
        if level is not None:
            found[key] = level
        if len(found) >= count * 6:
            break
    if not found:
        raise UserError(f"no solvable level found for size {size} and seed {seed}; try another "
                        "seed or a gentler --slope.")
    # Prefer levels that need a push, then longer solutions; list them easiest first.
    ranked = sorted(found.values(), key=lambda g: (not g.needs_push, -g.length))[:count]
    return sorted(ranked, key=lambda g: (g.length, g.needs_push))


def write_levels(levels: list[Generated], out: Path, prefix: str = "descent") -> list[Path]:
    paths = []
    for index, level in enumerate(levels, 1):
        path = out / f"{prefix}-{index:02d}.txt"
        atomic_write(path, heights_text(level.heights).encode())
        sidecar = {"name": f"{prefix} {index}", "ruleset": "descent",
                   "needs_push": level.needs_push, "optimal": level.length,
                   "solution": level.moves, "stars": level.stars()}
        atomic_write(path.with_suffix(".yaml"), yaml.safe_dump(sidecar, sort_keys=False).encode())
        paths.append(path)
    return paths
