"""Observations: planes over the board's cells, named, the same list for every state of a game.

An observation has shape (planes, height, width), float32; which planes a ruleset gets is
`plane_names(ruleset)`, its `planes` edge (docs/ecosystem.md lists them). Plane names read:

- `kind:K`   1 where a thing of kind K stands (`kind:text` is any word tile);
- `kind:other` 1 under a thing whose kind has no plane of its own;
- `word:W`   1 where the word tile W lies;
- `side:own`, `side:other`  1 under a unit or building of the observing side / the other;
- `hp`       hit points / max hit points of what stands there;
- `moves`    move points left / max of a unit; `ready` 1 under a unit that may still attack;
- `height`   blocks stacked on the cell (descent), as a count;
- `exit`     1 on the descent exit;
- `to_play`  every cell 1 when the observing side is to play.

Every game is perfect-information: the observers differ only in which side is `own` and
whether `to_play` is lit.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from components import Actions, Health, Kind, Moves, Position, Team, Word
from components.resources import EXIT_KEY, SIZE_KEY

if TYPE_CHECKING:
    from game.engine import Engine

HIGH = 255.0  # the largest value any plane holds (a height)


@cache
def vocabulary() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kinds of thing and the word texts with a plane of their own (from the data files)."""
    from game.data import palette, words

    texts = words()
    kinds = {e.kind for e in palette().values() if e.kind not in ("", "floor")}
    kinds |= {info.kind for info in texts.values() if info.part == "noun" and info.kind}
    kinds |= {"minion"}
    return tuple(sorted(kinds)), tuple(sorted(texts))


def board_planes() -> tuple[str, ...]:
    """The planes of things and words on the board: one per kind, `kind:other`, one per word
    (what a ruleset's `planes` edge starts from when its board holds things and words)."""
    kinds, texts = vocabulary()
    return (*(f"kind:{k}" for k in kinds), "kind:other", *(f"word:{t}" for t in texts))


UNIT_PLANES = ("side:own", "side:other", "hp", "moves", "ready")


@cache
def plane_names(ruleset: str) -> tuple[str, ...]:
    """The plane names of a ruleset's observation, in order: its `planes` edge."""
    from game import registry

    names: tuple[str, ...] = tuple(registry.spec(ruleset).edge("planes")())
    return names


class Planes:
    """The observation of one game: `names`, `shape`, and `fill` / `observe` a position."""

    def __init__(self, engine: Engine) -> None:
        self.names = plane_names(engine.ruleset.name)
        self.index = {name: i for i, name in enumerate(self.names)}
        # plane by kind name and by word text, so filling formats no string per thing
        self.kinds = {n[5:]: i for n, i in self.index.items() if n.startswith("kind:")}
        self.words = {n[5:]: i for n, i in self.index.items() if n.startswith("word:")}
        size = engine.world.resource(SIZE_KEY)
        if size is None:  # a ruleset that keeps no board size: its map's
            assert engine.map is not None
            size = (engine.map.width, engine.map.height)
        width, height = size
        self.shape = (len(self.names), height, width)

    def observe(self, engine: Engine, me: str) -> np.ndarray:
        """A new array of `engine`'s position as side `me` sees it."""
        out = np.zeros(self.shape, dtype=np.float32)
        self.fill(engine, me, out)
        return out

    def fill(self, engine: Engine, me: str, out: np.ndarray) -> None:
        """Write the position, as side `me` sees it, into `out` (of `shape`)."""
        out.fill(0.0)
        world, index = engine.world, self.index
        _, height, width = self.shape
        # One pass per component type over the World's cached queries.
        cells = {e: (p.y, p.x) for e, p in world.query(Position)
                 if 0 <= p.x < width and 0 <= p.y < height}
        kinds, words = self.kinds, self.words
        other, stacks = index.get("kind:other"), index.get("height")
        for entity, kind in world.query(Kind):
            where = cells.get(entity)
            if where is None:
                continue
            if stacks is not None and kind.name == "block":
                out[(stacks, *where)] += 1.0
            plane = kinds.get(kind.name, other)
            if plane is not None:
                out[(plane, *where)] = 1.0
        if words:
            for entity, word in world.query(Word):
                plane = words.get(word.text)
                if entity in cells and plane is not None:
                    out[(plane, *cells[entity])] = 1.0
        if "side:own" in index:
            self._units(engine, me, cells, out)
        if "exit" in index:
            ex, ey = world.resource(EXIT_KEY)
            out[index["exit"], ey, ex] = 1.0
        if "to_play" in index and not engine.over and engine.side == me:
            out[index["to_play"]] = 1.0

    def _units(self, engine: Engine, me: str, cells: dict[int, tuple[int, int]],
               out: np.ndarray) -> None:
        world, index = engine.world, self.index
        own, foe = index["side:own"], index["side:other"]
        for entity, team in world.query(Team):
            if entity in cells:
                out[(own if team.side == me else foe, *cells[entity])] = 1.0
        for entity, health in world.query(Health):
            if entity in cells and health.max_hp > 0:
                out[(index["hp"], *cells[entity])] = max(0.0, min(1.0, health.hp / health.max_hp))
        for entity, moves in world.query(Moves):
            if entity in cells and moves.max_mp > 0:
                out[(index["moves"], *cells[entity])] = max(0.0, min(1.0, moves.mp / moves.max_mp))
        for entity, actions in world.query(Actions):
            if entity in cells and actions.ap > 0:
                out[(index["ready"], *cells[entity])] = 1.0
