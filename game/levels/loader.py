"""One door for every kind of level file: skirmish/puzzle PNG maps, Keke JSON sets and `.keke`
grids, and descent heightmaps (`.txt`, or PNG whose sidecar says `ruleset: descent`)."""

from __future__ import annotations

from pathlib import Path

from game.data import map_argument
from game.engine import Engine
from game.errors import UserError
from game.levels.maps import GameMap, load_map, virtual_map

PUZZLE_SUFFIXES = (".json", ".keke")


def load_game_map(path: str | Path, level: str | int | None = None) -> GameMap:
    """Decode any level file into a GameMap (its sidecar names the ruleset)."""
    from game.rulesets.descent import ruleset as descent
    from game.rulesets.puzzle import keke

    described = virtual_map(path)
    if described is not None:
        return described
    path = map_argument(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        levels = keke.read_set(path)
        if level is None:
            if len(levels) != 1:
                raise UserError(f"{path}: holds {len(levels)} levels; pick one with --level ID.")
            return keke.level_map(path, levels[0])
        return keke.level_map(path, keke.find_level(levels, level, path))
    if level is not None:
        raise UserError(f"{path}: --level only applies to Keke JSON level sets.")
    if suffix == ".keke":
        try:
            text = path.read_text(encoding="utf-8")
        except (FileNotFoundError, OSError, UnicodeDecodeError) as exc:
            raise UserError(f"{path}: cannot be read ({exc}).") from None
        return keke.parse_ascii(text, path)
    if suffix == ".txt":
        return descent.read_text_map(path)
    if suffix == ".png":
        if descent.is_descent_png(path):
            return descent.read_png_map(path)
        return load_map(path)
    raise UserError(f"{path}: unknown level file; use .png, .keke, .json (Keke set) or .txt "
                    "(descent heightmap).")


def load_level(path: str | Path, level: str | int | None = None, seed: int = 0) -> Engine:
    """An Engine on any level file, with the ruleset its format or sidecar names."""
    return Engine.from_game_map(load_game_map(path, level), seed=seed)
