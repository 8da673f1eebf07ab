"""Pushes as moves with consequences: the short lines a whole-turn search opens candidate turns
with, so its turns hold pushes of words and blocks and not only what the greedy heuristic
happens to play.

A line is a hero's walk to a cell beside something it can push (a word tile, or a thing the
rules make PUSH), then its push, and a second push on in the same direction when the first
changed nothing. A line counts when it changes something: a rule formed or broken, something
destroyed, a kind transformed, or the game won. The lines are scored by the evaluation after
them, for the side that pushes, and the best few are kept. Every line is applied and taken
back; the walks come from `engine.legal_actions()` and each push is checked by
`engine.why_illegal`, so an engine that forbids word pushes (`words=off`) offers none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from components import Kind, Moves, Position, Word
from components.resources import PROPS_KEY
from game.commands import Command, Move
from game.events import Destroyed, Died, Pushed, RuleBroken, RuleFormed, Transformed, Won
from systems.board import DIRS
from systems.rules import Prop

if TYPE_CHECKING:
    from game.engine import Engine
    from systems.ai.base import Evaluator

PUSH = int(Prop.PUSH)
CONSEQUENCES = (RuleFormed, RuleBroken, Died, Destroyed, Transformed, Won)
Cell = tuple[int, int]


def pushable_cells(engine: Engine) -> set[Cell]:
    """The cells holding a word tile or a thing whose kind the rules make PUSH."""
    world = engine.world
    props = world.resource(PROPS_KEY, {})
    kinds = {kind for kind, mask in props.items() if mask & PUSH}
    cells = {(p.x, p.y) for _e, (_w, p) in world.query(Word, Position)}
    if kinds - {"text"}:
        cells |= {(p.x, p.y) for _e, (k, p) in world.query(Kind, Position) if k.name in kinds}
    return cells


def _changes(events: list) -> bool:
    return any(isinstance(e, CONSEQUENCES) for e in events)


def push_lines(engine: Engine, evaluate: Evaluator, limit: int,
               apply: Callable[[Command], list] | None = None
               ) -> list[tuple[float, tuple[Command, ...]]]:
    """Up to `limit` lines (walk?, push, push?) of the side to play that change something,
    with the evaluation after each for that side, best first. `apply` applies a command (a
    search passes its own, which counts nodes); the engine is back where it was after."""
    if limit <= 0:
        return []
    cells = pushable_cells(engine)
    if not cells:
        return []
    play = apply or engine.apply
    side = engine.side
    world = engine.world
    start = len(engine.history)
    actions = engine.legal_actions()
    heroes: dict[int, list[Move]] = {}
    for command in actions:
        if type(command) is Move:
            heroes.setdefault(command.unit, []).append(command)
    found: list[tuple[float, tuple[Command, ...]]] = []
    for unit, moves in heroes.items():
        pos = world.get(unit, Position)
        stands: list[tuple[Move | None, Cell]] = [(None, (pos.x, pos.y))]
        stands += [(m, (m.x, m.y)) for m in moves if (m.x, m.y) not in cells]
        for walk, (x, y) in stands:
            ahead = [(dx, dy) for dx, dy in DIRS if (x + dx, y + dy) in cells]
            if not ahead:
                continue
            try:
                if walk is not None:
                    play(walk)
                if engine.over or engine.side != side:
                    continue
                at = len(engine.history)
                for dx, dy in ahead:
                    line = _line(engine, play, unit, walk, x, y, dx, dy)
                    if line is not None:
                        found.append((evaluate(engine, side), line))
                    engine.retract_to(at)
            finally:
                engine.retract_to(start)
    found.sort(key=lambda vl: -vl[0])
    return found[:limit]


def _line(engine: Engine, play: Callable[[Command], list], unit: int, walk: Move | None,
          x: int, y: int, dx: int, dy: int) -> tuple[Command, ...] | None:
    """From (x, y), push toward (dx, dy), and once more when the first push changed nothing:
    the line with the walk before it, left applied, if it changed something.

    A push is tried before it is checked (most change nothing, and the check costs more than
    the try); a line that changed something is played again with each push checked by
    `engine.why_illegal`, so what is kept is legal."""
    side = engine.side
    at = len(engine.history)
    pushes: list[Command] = []
    for step in (1, 2):
        if engine.world.get(unit, Moves).mp < 1:
            return None
        push = Move(unit, x + step * dx, y + step * dy)
        events = play(push)
        pushes.append(push)
        if not any(type(e) is Pushed for e in events):
            return None
        if _changes(events):
            engine.retract_to(at)
            for command in pushes:
                if engine.why_illegal(command) is not None:
                    return None
                play(command)
            return tuple(pushes) if walk is None else (walk, *pushes)
        if engine.over or engine.side != side:
            return None
    return None
