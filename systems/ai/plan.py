"""Whole turns chosen once and played one action at a time: the turn-replay both minimax (over
whole turns) and MCTS use, and how long a greedy policy's turn is (their time budget per turn)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from systems.ai.base import Budget

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.commands import Command
    from game.engine import Engine

MAX_TURN = 40  # actions a turn may take before the count stops (a safety net)


class TurnPlan:
    """The rest of a chosen turn: its next action while the game still follows it (the same
    engine, no other command played since, the action still legal), else nothing."""

    def __init__(self) -> None:
        self._planned: list[Command] = []
        self._expect: tuple[int, int] | None = None  # (engine id, history length) of the next

    def next(self, engine: Engine) -> Command | None:
        """The plan's next action, or None (and the plan dropped) when the game left it."""
        if self._planned and self._expect == (id(engine), len(engine.history)):
            command = self._planned.pop(0)
            if engine.why_illegal(command) is None:
                self._expect = (id(engine), len(engine.history) + 1)
                return command
        self.drop()
        return None

    def start(self, engine: Engine, turn: Sequence[Command]) -> Command:
        """Play `turn` from here on: its first action now, the rest by `next`."""
        plan = list(turn)
        command = plan.pop(0)
        self._planned = plan
        self._expect = (id(engine), len(engine.history) + 1)
        return command

    def drop(self) -> None:
        self._planned, self._expect = [], None


def turn_length(engine: Engine, policy: Any) -> int:
    """How many actions `policy` would play this turn (applied, then retracted; at most
    MAX_TURN)."""
    side = engine.side
    start = len(engine.history)
    rng = random.Random(0)
    try:
        while not engine.over and engine.side == side and len(engine.history) - start < MAX_TURN:
            engine.apply(policy.choose(engine, rng, Budget()))
        return max(1, len(engine.history) - start)
    finally:
        while len(engine.history) > start:
            engine.retract()
