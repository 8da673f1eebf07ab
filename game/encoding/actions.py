"""The fixed integer action encodings, one per ruleset (docs/ecosystem.md lists them).

An action is an int below `size`, fixed for a game whatever the state: the same int always
means the same command (what OpenSpiel's num_distinct_actions and a Gymnasium Discrete space
both need). `encode` turns one of the Engine's legal commands into its int, `table` gives the
legal commands by int, `text` says in words what an int stands for, without a state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

import numpy as np

from components import Kind, Position, Team, UnitClass
from components.resources import SIZE_KEY
from game.commands import Attack, Command, EndTurn, Move, Step, Take, Wait

if TYPE_CHECKING:
    from game.engine import Engine
    from game.world import World


class Encoding(ABC):
    """Commands of one game <-> ints below `size`, and the ones legal now."""

    size: int
    _cached: tuple[Any, Any, dict[int, Command]] | None = None

    @abstractmethod
    def encode(self, world: World, command: Command) -> int:
        """The int a legal command stands for."""

    @abstractmethod
    def describe(self, action: int) -> str:
        """The command an action in 0..size-1 stands for, in words."""

    def text(self, action: int) -> str:
        """The command an action stands for, in words (ValueError outside 0..size-1)."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is not below {self.size}")
        return self.describe(action)

    def table(self, world: World, commands: list[Command]) -> dict[int, Command]:
        """`commands` (legal now) by their ints; two commands never share one."""
        encode, legal = self.encode, dict[int, Command]()
        for command in commands:
            action = encode(world, command)
            if action in legal and legal[action] != command:
                raise AssertionError(f"{command} and {legal[action]} share id {action}")
            legal[action] = command
        return legal

    def legal(self, engine: Engine) -> dict[int, Command]:
        """The legal commands by int, kept until the world changes (an environment asks for
        the mask and then for the command)."""
        cached = self._cached
        if cached is not None and cached[0] is engine and engine.world.same_version(cached[1]):
            return cached[2]
        table = {} if engine.over else self.table(engine.world, engine.legal_actions())
        self._cached = (engine, engine.world.version(), table)
        return table

    def mask(self, engine: Engine) -> np.ndarray:
        """int8, 1 for each action legal now."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[list(self.legal(engine))] = 1
        return mask


class SkirmishEncoding(Encoding):
    """0 ends the turn; 1 + slot*C + cell moves hero `slot` to `cell`; 1 + S*C + slot*C + cell
    makes hero `slot` attack the unit standing on `cell`. C = width*height, cell = y*width + x,
    and slot numbers the S heroes of the start position by entity id (both sides together:
    heroes never come back, so a slot never changes hands)."""

    def __init__(self, world: World) -> None:
        self.width, self.height = world.resource(SIZE_KEY)
        self.cells = self.width * self.height
        heroes = [(e, team.side, cls.name) for e, (kind, team, cls)
                  in world.query(Kind, Team, UnitClass) if kind.name == "hero"]
        self.slots = {entity: slot for slot, (entity, _s, _c) in enumerate(heroes)}
        self.names = [f"{side} {name} (unit {entity})" for entity, side, name in heroes]
        self.size = 1 + 2 * len(heroes) * self.cells

    def encode(self, world: World, command: Command) -> int:
        if isinstance(command, EndTurn):
            return 0
        if isinstance(command, Move):
            return 1 + self.slots[command.unit] * self.cells + command.y * self.width + command.x
        if not isinstance(command, Attack):
            raise ValueError(f"skirmish has no number for {command!r}")
        pos = world.get(command.target, Position)
        return (1 + (len(self.slots) + self.slots[command.unit]) * self.cells
                + pos.y * self.width + pos.x)

    def describe(self, action: int) -> str:
        if action == 0:
            return "end turn"
        slot, cell = divmod(action - 1, self.cells)
        x, y = cell % self.width, cell // self.width
        if slot < len(self.names):
            return f"{self.names[slot]} moves to ({x}, {y})"
        return f"{self.names[slot - len(self.names)]} attacks ({x}, {y})"


STEP_WORDS = {Step("u"): "step up", Step("d"): "step down", Step("l"): "step left",
              Step("r"): "step right", Wait(): "wait"}


class StepEncoding(Encoding):
    """Puzzle: 0-3 Step up, down, left, right; 4 Wait. Descent: 0-3 (it has no Wait)."""

    def __init__(self, wait: bool) -> None:
        self.commands: tuple[Command, ...] = tuple(STEP_WORDS)[:5 if wait else 4]
        self.size = len(self.commands)

    def encode(self, world: World, command: Command) -> int:
        if command not in self.commands:
            raise ValueError(f"no number for {command!r}")
        return self.commands.index(command)

    def describe(self, action: int) -> str:
        return STEP_WORDS[self.commands[action]]


class OctalEncoding(Encoding):
    """Take(heap, count, left) is heap*M*M + (count-1)*M + left, M the largest start heap;
    heaps are numbered in reading order, at most as many as the tokens at the start (a split
    adds a heap and takes a token at least)."""

    def __init__(self, sizes: list[int]) -> None:
        self.m = max(sizes, default=1)
        self.heaps = max(1, sum(sizes))
        self.size = self.heaps * self.m * self.m

    def encode(self, world: World, command: Command) -> int:
        if not isinstance(command, Take):
            raise ValueError(f"octal has no number for {command!r}")
        return (command.heap * self.m + command.count - 1) * self.m + command.left

    def describe(self, action: int) -> str:
        heap, rest = divmod(action, self.m * self.m)
        count, left = divmod(rest, self.m)
        return f"take {count + 1} from heap {heap} after the first {left}"


def encoding_for(engine: Engine) -> Encoding:
    """The encoding of `engine`'s game, numbered from its current position (a game's start,
    or the position a seat searches from)."""
    name = engine.ruleset.name
    if name == "skirmish":
        return SkirmishEncoding(engine.world)
    if name in ("puzzle", "descent"):
        return StepEncoding(wait=name == "puzzle")
    if name == "octal":
        from game.rulesets.octal.ruleset import heap_sizes

        return OctalEncoding(heap_sizes(engine.world))
    raise ValueError(f"the {name} ruleset has no action encoding")
