"""Observations: the text board, and a tensor of planes over the board's cells.

Every game is perfect-information, so both players see the same thing. The tensor has shape
(planes, height, width); which planes a ruleset gets is `PLANES[ruleset]` (docs/ecosystem.md
lists them). Plane names read:

- `kind:K`  1 where a thing of kind K stands (`kind:text` is any word tile);
- `word:W`  1 where the word tile W lies;
- `side:S`  1 under a unit or building of side S;
- `hp`      hit points / max hit points of what stands there;
- `moves`   move points left / max of a hero; `ready` 1 under a hero that may still attack;
- `height`  blocks stacked on the cell (descent), as a count;
- `exit`    1 on the descent exit;
- `to_play` every cell 1 when the first player (red) is to play.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from components import Actions, Health, Kind, Moves, Position, Team, Word
from components.resources import EXIT_KEY, SIZE_KEY
from game.data import SIDES, words

if TYPE_CHECKING:
    from game.engine import Engine

SKIRMISH_KINDS = ("hero", "minion", "tower", "hq", "rock", "water", "wall", "block", "text")


@cache
def planes_for(ruleset: str) -> tuple[str, ...]:
    """The plane names of a ruleset's observation tensor, in order."""
    all_words = tuple(f"word:{text}" for text in words())
    if ruleset == "skirmish":
        return (*(f"kind:{k}" for k in SKIRMISH_KINDS), *all_words,
                *(f"side:{s}" for s in SIDES), "hp", "moves", "ready", "to_play")
    if ruleset == "puzzle":
        nouns = tuple(dict.fromkeys(info.kind for info in words().values() if info.kind))
        return (*(f"kind:{k}" for k in nouns), *all_words)
    if ruleset == "descent":
        return ("height", "kind:ball", "exit")
    return ("kind:block", "to_play")  # octal


class GridObserver:
    """OpenSpiel's PyObserver for one game: `tensor` (flat) and `dict` (a shaped view)."""

    def __init__(self, ruleset: str, width: int, height: int) -> None:
        self.names = planes_for(ruleset)
        self.index = {name: i for i, name in enumerate(self.names)}
        shape = (len(self.names), height, width)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: Any, player: int) -> None:
        self.fill(state.engine(), self.dict["observation"])

    def string_from(self, state: Any, player: int) -> str:
        return str(state)

    def fill(self, engine: Engine, planes: np.ndarray) -> None:
        """Write the position's planes into `planes` (shape: planes, height, width)."""
        planes.fill(0.0)
        world, index = engine.world, self.index
        width, height = world.resource(SIZE_KEY)
        for entity, (pos, kind) in world.query(Position, Kind):
            x, y = pos.x, pos.y
            if not (0 <= x < width and 0 <= y < height):
                continue
            plane = index.get(f"kind:{kind.name}")
            if plane is not None:
                planes[plane, y, x] = 1.0
            if "height" in index and kind.name == "block":
                planes[index["height"], y, x] += 1.0
            word = world.try_get(entity, Word)
            if word is not None and f"word:{word.text}" in index:
                planes[index[f"word:{word.text}"], y, x] = 1.0
            self._unit(world, entity, x, y, planes)
        if "exit" in index:
            ex, ey = world.resource(EXIT_KEY)
            planes[index["exit"], ey, ex] = 1.0
        if "to_play" in index and not engine.over and engine.side == SIDES[0]:
            planes[index["to_play"]] = 1.0

    def _unit(self, world: Any, entity: int, x: int, y: int, planes: np.ndarray) -> None:
        index = self.index
        team = world.try_get(entity, Team)
        if team is None or f"side:{team.side}" not in index:
            return
        planes[index[f"side:{team.side}"], y, x] = 1.0
        health = world.try_get(entity, Health)
        if health is not None and health.max_hp:
            planes[index["hp"], y, x] = health.hp / health.max_hp
        moves = world.try_get(entity, Moves)
        if moves is not None and moves.max_mp:
            planes[index["moves"], y, x] = moves.mp / moves.max_mp
        actions = world.try_get(entity, Actions)
        if actions is not None and actions.ap > 0:
            planes[index["ready"], y, x] = 1.0
