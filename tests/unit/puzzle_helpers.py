"""Build tiny puzzle levels from rows of Keke characters and play moves on them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.cli.play import level_state
from game.cli.solve import apply_moves
from game.engine import Engine
from game.rulesets.puzzle.keke import parse_ascii


def keke_text(rows: list[str]) -> str:
    width = max(len(r) for r in rows)
    border = "_" * (width + 2)
    return "\n".join([border, *("_" + r.ljust(width, ".") + "_" for r in rows), border])


def level(rows: list[str]) -> Engine:
    return Engine.from_game_map(parse_ascii(keke_text(rows), Path("test.keke")))


def play(rows: list[str], moves: str) -> dict[str, Any]:
    engine = level(rows)
    apply_moves(engine, moves)
    return level_state(engine)


def where(state: dict[str, Any], kind: str) -> list[tuple[int, int]]:
    return [(o["x"], o["y"]) for o in state["objects"] if o["kind"] == kind]
