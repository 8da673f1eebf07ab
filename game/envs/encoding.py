"""The fixed action numbers and observation planes every Rulefront environment shares.

Actions (an integer per command; docs/ecosystem.md has the table):
- skirmish: 0 is EndTurn; each hero of the map (in entity-id order, both sides) owns a block
  of 2*W*H numbers: `1 + slot*2*W*H + y*W + x` moves it to (x, y), and the same plus W*H
  attacks whatever stands on (x, y).
- octal: `(heap*(M+1) + count)*(M+1) + left` takes `count` tokens from heap `heap` leaving
  `left` on the left of the gap (M: the largest starting heap).
- puzzle and descent: 0..3 step up, down, left, right; 4 waits.

Observations are planes per cell (channels x rows x columns, float32): one per kind of thing,
one for kinds not in the list, one per word tile's text, then own side, other side, HP as a
share of its maximum, stack height, and the exit (descent); octal games see their heap sizes instead.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from components import Health, Height, Kind, Moves, Position, Team, Word
from game.commands import Attack, Command, EndTurn, Move, Step, Take, Wait

if TYPE_CHECKING:
    from game.engine import Engine
    from game.world import World

HIGH = 255.0  # the largest value any plane holds (heights, heap sizes)


def restart(engine: Engine, game_map: Any, seed: int, same_seed: bool) -> Engine:
    """The game at its start: the same engine rewound when the seed is the one it was made
    with (undo is exact, and setting a ruleset up again reads its YAML: ~19 ms), else anew."""
    from game.engine import Engine

    if same_seed:
        while engine.retract() is not None:
            pass
        engine.redo_stack.clear()
        engine.queue.clear()
        return engine
    engine.world.close()
    return Engine.from_game_map(game_map, seed=seed)


class Encoding:
    """A fixed numbering of one game's commands, and the mask of those legal now."""

    size: int
    _cached: tuple[Any, Any, dict[int, Command]] | None = None

    def encode(self, engine: Engine, command: Command) -> int:
        raise NotImplementedError

    def legal(self, engine: Engine) -> dict[int, Command]:
        """The legal commands by number (each legal command has its own number); kept until
        the world changes, since a step asks for the mask and then for the command."""
        cached = self._cached
        if cached is not None and cached[0] is engine and engine.world.same_version(cached[1]):
            return cached[2]
        table = {self.encode(engine, c): c for c in engine.legal_actions()}
        self._cached = (engine, engine.world.version(), table)
        return table

    def mask(self, engine: Engine) -> np.ndarray:
        mask = np.zeros(self.size, dtype=np.int8)
        mask[list(self.legal(engine))] = 1
        return mask


class SkirmishEncoding(Encoding):
    def __init__(self, engine: Engine) -> None:
        assert engine.map is not None
        self.width, self.height = engine.map.width, engine.map.height
        self.cells = self.width * self.height
        world = engine.world
        self.slots = {e: i for i, (e, _) in enumerate(world.query(Moves))
                      if world.get(e, Kind).name == "hero"}
        self.size = 1 + len(self.slots) * 2 * self.cells

    def encode(self, engine: Engine, command: Command) -> int:
        if isinstance(command, EndTurn):
            return 0
        if isinstance(command, Attack):
            where = engine.world.get(command.target, Position)
            base = 1 + self.slots[command.unit] * 2 * self.cells + self.cells
            return base + where.y * self.width + where.x
        if isinstance(command, Move):
            base = 1 + self.slots[command.unit] * 2 * self.cells
            return base + command.y * self.width + command.x
        raise ValueError(f"skirmish has no number for {command!r}")


class OctalEncoding(Encoding):
    def __init__(self, heaps: list[int]) -> None:
        self.largest = max(heaps, default=0)
        self.heaps = max(1, sum(heaps))  # a split adds a heap and takes a token at least
        side = self.largest + 1
        self.size = self.heaps * side * side

    def encode(self, engine: Engine, command: Command) -> int:
        if not isinstance(command, Take):
            raise ValueError(f"octal has no number for {command!r}")
        side = self.largest + 1
        return (command.heap * side + command.count) * side + command.left


class StepEncoding(Encoding):
    """Puzzle and descent: the four steps and waiting."""

    COMMANDS: tuple[Command, ...] = (Step("u"), Step("d"), Step("l"), Step("r"), Wait())
    size = len(COMMANDS)

    def encode(self, engine: Engine, command: Command) -> int:
        return self.COMMANDS.index(command)


@lru_cache(maxsize=1)
def vocabulary() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kinds of thing and the word texts with a plane of their own (from the data files)."""
    from game.data import palette, words

    texts = words()
    kinds = {e.kind for e in palette().values() if e.kind not in ("", "floor")}
    kinds |= {info.kind for info in texts.values() if info.part == "noun" and info.kind}
    kinds |= {"minion"}
    return tuple(sorted(kinds)), tuple(sorted(texts))


def plane_count() -> int:
    kinds, texts = vocabulary()
    return len(kinds) + 1 + len(texts) + 5


def planes(world: World, width: int, height: int, me: str | None = None) -> np.ndarray:
    """The board as planes (see the module's docstring); `me` is the side whose view it is."""
    kinds, texts = vocabulary()
    kind_at = {k: i for i, k in enumerate(kinds)}
    word_at = {t: len(kinds) + 1 + i for i, t in enumerate(texts)}
    own = len(kinds) + 1 + len(texts)
    out = np.zeros((own + 5, height, width), dtype=np.float32)
    # One pass per component type over the World's cached queries (no per-entity lookups).
    cells = {e: (p.y, p.x) for e, p in world.query(Position)
             if 0 <= p.x < width and 0 <= p.y < height}
    other = len(kinds)
    for entity, kind in world.query(Kind):
        if entity in cells:
            out[(kind_at.get(kind.name, other), *cells[entity])] = 1.0
    for entity, word in world.query(Word):
        if entity in cells and word.text in word_at:
            out[(word_at[word.text], *cells[entity])] = 1.0
    if me is not None:
        for entity, team in world.query(Team):
            if entity in cells:
                out[(own if team.side == me else own + 1, *cells[entity])] = 1.0
    for entity, health in world.query(Health):
        if entity in cells and health.max_hp > 0:
            out[(own + 2, *cells[entity])] = max(0.0, min(1.0, health.hp / health.max_hp))
    for entity, stack in world.query(Height):
        if entity in cells:
            where = (own + 3, *cells[entity])
            out[where] = max(out[where], min(HIGH, float(stack.z + 1)))
    goal = world.resource("exit")
    if isinstance(goal, tuple) and len(goal) == 2 and 0 <= goal[0] < width \
            and 0 <= goal[1] < height:
        out[own + 4, goal[1], goal[0]] = 1.0
    return out
