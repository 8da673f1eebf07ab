"""Edges the one-player level rulesets share (RulesetSpec): a level named by a parameter, and
a game cut off after `max_moves` steps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.registry import Param

if TYPE_CHECKING:
    from game.engine import Engine
    from game.levels.maps import GameMap

MAX_MOVES = Param("max_moves", 200, "steps before an unfinished game is cut off")


def from_params(params: dict[str, Any], load: Any) -> GameMap:
    """`level` (a file or a shipped level's name), and `index` in a level set when 0 or more."""
    index = params.get("index", -1)
    game_map: GameMap = load(params["level"], index if index >= 0 else None)
    return game_map


def max_length(engine: Engine, params: dict[str, Any]) -> int:
    return int(params["max_moves"])
