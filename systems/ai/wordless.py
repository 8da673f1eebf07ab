"""`words=off`: an AI that never pushes a word tile, so what words are worth to it can be measured.

Any built-in AI takes the seat option (`heuristic:words=off`, `mcts:think=0.2,words=off`).
The AI is built as usual and wrapped: whenever it chooses, it sees the engine through
`WordlessEngine`, whose `legal_actions` leave out every Move that would push a line holding a
word tile, for the side the AI plays. Its searches read the same filtered list at every node
where that side moves, so it plans as a player who cannot touch the words, while the opponent
it imagines still can.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from components import Position, Word
from game.commands import Move
from game.engine import Engine
from game.events import Pushed

if TYPE_CHECKING:
    from game.commands import Command


class WordlessEngine(Engine):
    """The same engine under another class: it shares the engine's attributes (the very same
    `__dict__`, so every apply and undo through it is the engine's own), and its
    `legal_actions` hold no Move of `side` that pushes a word tile (`why_illegal` refuses one)."""

    __slots__ = ("wordless_side",)  # its own, not in the shared __dict__

    def __init__(self, engine: Engine, side: str) -> None:
        self.__dict__ = engine.__dict__
        self.wordless_side = side

    def legal_actions(self) -> list[Command]:
        actions = Engine.legal_actions(self)
        if self.side != self.wordless_side or not self.world.query(Word):
            return actions
        return [c for c in actions if not pushes_word(self, c)]

    def why_illegal(self, command: Command) -> str | None:
        reason = Engine.why_illegal(self, command)
        if reason is None and self.side == self.wordless_side and self.world.query(Word) \
                and pushes_word(self, command):
            return "words=off: this AI may not push a word tile."
        return reason


def may_push_words(engine: Engine, side: str) -> bool:
    """Whether `side` may push word tiles on `engine` (not when the engine is the view of a
    `words=off` AI playing `side`)."""
    return getattr(engine, "wordless_side", None) != side


def pushes_word(engine: Engine, command: Command) -> bool:
    """Whether `command` is a unit's step into a neighbouring cell that shoves a word tile
    (tried and taken back: only steps into an occupied neighbouring cell can push)."""
    if type(command) is not Move:
        return False
    world = engine.world
    pos = world.try_get(command.unit, Position)
    if pos is None or abs(command.x - pos.x) + abs(command.y - pos.y) != 1 \
            or not world.at(command.x, command.y):
        return False
    events = engine.apply(command)
    try:
        return any(type(e) is Pushed and world.try_get(e.entity, Word) is not None
                   for e in events)
    finally:
        engine.retract()


class Wordless:
    """An AI that plays as `inner` does, never pushing a word tile (`words=off`)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = f"{inner.name}:words=off"
        self._view: WordlessEngine | None = None  # kept: searches know an engine by its id

    def __getattr__(self, name: str) -> Any:
        # think, NEEDS, PLANS_TURNS, last...: what the seat and the forfeit clock read
        return getattr(self.__dict__["inner"], name)

    def choose(self, engine: Engine, rng: random.Random, budget: Any) -> Command:
        view = self._view
        if view is None or view.__dict__ is not engine.__dict__ \
                or view.wordless_side != engine.side:
            view = self._view = WordlessEngine(engine, engine.side)
        command: Command = self.inner.choose(view, rng, budget)
        return command
