"""`rulefront maps`: the maps and levels that ship with the game, by the names that open them."""

from __future__ import annotations

import argparse
import json
from typing import Any

from game import MAPS
from game.data import shipped_levels
from game.levels.loader import load_game_map
from game.levels.maps import GameMap, sidecar_path

COLUMNS = ("name", "kind", "ruleset", "size", "path", "title")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("maps", help="list the shipped maps and levels, by the names that open them")
    p.add_argument("--json", action="store_true", help="print the list as one JSON array")
    p.set_defaults(func=run)


def listing() -> list[dict[str, Any]]:
    """One row per shipped map or level: what to type, its ruleset, size, file and title."""
    rows = []
    for shipped in shipped_levels():
        game_map = load_game_map(shipped.path)
        has_sidecar = sidecar_path(shipped.path).exists()
        rows.append({"name": shipped.name, "kind": kind_of(game_map), "ruleset": game_map.ruleset,
                     "size": f"{game_map.width}x{game_map.height}", "path": shipped.relative,
                     "title": game_map.name if has_sidecar else None})
    return rows


def kind_of(game_map: GameMap) -> str:
    """challenge (a sidecar that states one), match (a map of sides) or level (one player)."""
    from game import registry

    if isinstance(game_map.sidecar.get("challenge"), dict):
        return "challenge"
    sides = registry.load_object(registry.spec(game_map.ruleset).factory).sides
    return "match" if len(sides) > 1 else "level"


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as aligned columns, a header first and how to open one last."""
    cells = [list(COLUMNS)] + [[str(row[c] or "") for c in COLUMNS] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(COLUMNS))]
    lines = ["  ".join(text.ljust(w) for text, w in zip(line, widths, strict=True)).rstrip()
             for line in cells]
    lines.append(f"{len(rows)} maps and levels in {MAPS}; open one by name, e.g. "
                 "`rulefront match duel` or `rulefront play first-steps`.")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    rows = listing()
    print(json.dumps(rows) if args.json else table(rows))
    return 0
