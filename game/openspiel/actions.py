"""The fixed integer action encodings, one per ruleset (docs/ecosystem.md lists them).

An OpenSpiel action is an int below `num_distinct_actions`, fixed for a game whatever the
state: the same int always means the same command. `encode` turns one of the Engine's legal
commands into its int; `text` says in words what an int stands for, without a state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from components import Kind, Position, Team, UnitClass
from components.resources import SIZE_KEY
from game.commands import Attack, Command, EndTurn, Move, Step, Take, Wait

if TYPE_CHECKING:
    from game.world import World


class Codec(Protocol):
    """Commands of one game <-> ints below num_actions."""

    num_actions: int

    def encode(self, world: World, command: Command) -> int: ...

    def text(self, action: int) -> str: ...


class SkirmishCodec:
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
        self.num_actions = 1 + 2 * len(heroes) * self.cells

    def encode(self, world: World, command: Command) -> int:
        if isinstance(command, EndTurn):
            return 0
        if isinstance(command, Move):
            return 1 + self.slots[command.unit] * self.cells + command.y * self.width + command.x
        assert isinstance(command, Attack), command
        pos = world.get(command.target, Position)
        return (1 + (len(self.slots) + self.slots[command.unit]) * self.cells
                + pos.y * self.width + pos.x)

    def text(self, action: int) -> str:
        if action == 0:
            return "end turn"
        slot, cell = divmod(action - 1, self.cells)
        x, y = cell % self.width, cell // self.width
        if slot < len(self.names):
            return f"{self.names[slot]} moves to ({x}, {y})"
        return f"{self.names[slot - len(self.names)]} attacks ({x}, {y})"


STEPS = ("u", "d", "l", "r")
STEP_WORDS = ("step up", "step down", "step left", "step right", "wait")


class StepCodec:
    """Puzzle and descent: 0-3 Step up, down, left, right; 4 Wait (puzzle only)."""

    def __init__(self, wait: bool) -> None:
        self.num_actions = 5 if wait else 4

    def encode(self, world: World, command: Command) -> int:
        if isinstance(command, Wait):
            return 4
        assert isinstance(command, Step), command
        return STEPS.index(command.direction)

    def text(self, action: int) -> str:
        return STEP_WORDS[action]


class OctalCodec:
    """Take(heap, count, left) is heap*M*M + (count-1)*M + left, M the largest start heap;
    heaps are numbered in reading order, at most as many as the tokens at the start."""

    def __init__(self, sizes: list[int]) -> None:
        self.m = max(sizes)
        self.num_actions = max(1, sum(sizes)) * self.m * self.m

    def encode(self, world: World, command: Command) -> int:
        assert isinstance(command, Take), command
        return (command.heap * self.m + command.count - 1) * self.m + command.left

    def text(self, action: int) -> str:
        heap, rest = divmod(action, self.m * self.m)
        count, left = divmod(rest, self.m)
        return f"take {count + 1} from heap {heap} after the first {left}"
