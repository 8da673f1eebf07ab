"""The fixed integer action encodings: the base every ruleset's encoding builds on, and the
encoding of games played in steps (docs/ecosystem.md lists each ruleset's).

An action is an int below `size`, fixed for a game whatever the state: the same int always
means the same command (what OpenSpiel's num_distinct_actions and a Gymnasium Discrete space
both need). `encode` turns one of the Engine's legal commands into its int, `table` gives the
legal commands by int, `text` says in words what an int stands for, without a state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

import numpy as np

from game.commands import Command, Step, Wait

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
        table = self.table(engine.world, engine.legal_actions())  # none once it is over
        self._cached = (engine, engine.world.version(), table)
        return table

    def mask(self, engine: Engine) -> np.ndarray:
        """int8, 1 for each action legal now."""
        mask = np.zeros(self.size, dtype=np.int8)
        mask[list(self.legal(engine))] = 1
        return mask


STEP_WORDS = {Step("u"): "step up", Step("d"): "step down", Step("l"): "step left",
              Step("r"): "step right", Wait(): "wait"}


class StepEncoding(Encoding):
    """0-3 Step up, down, left, right; 4 Wait when the game has it."""

    def __init__(self, wait: bool) -> None:
        self.commands: tuple[Command, ...] = tuple(STEP_WORDS)[:5 if wait else 4]
        self.size = len(self.commands)

    def encode(self, world: World, command: Command) -> int:
        if command not in self.commands:
            raise ValueError(f"no number for {command!r}")
        return self.commands.index(command)

    def describe(self, action: int) -> str:
        return STEP_WORDS[self.commands[action]]


def encoding_for(engine: Engine) -> Encoding:
    """The encoding of `engine`'s game, numbered from its current position (a game's start,
    or the position a seat searches from): its ruleset's `encoding` edge."""
    from game import registry

    made: Encoding = registry.spec(engine.ruleset.name).edge("encoding")(engine)
    return made
