"""Perfect play for octal games: move to a position of Grundy value 0 whenever one exists.

Normal play follows Sprague-Grundy: the XOR of the heaps' values is 0 exactly when the side to
move loses. Misere play of Nim follows Bouton's rule; other misere games are searched
exhaustively over positions (multisets of heap sizes), which is exact and fast for the heap
sizes a map can hold.
"""

from __future__ import annotations

import random
from functools import cache, reduce
from operator import xor
from typing import TYPE_CHECKING

from game.commands import Take
from game.errors import UserError
from game.grundy.codes import OctalGame, parse_code
from game.grundy.solver import grundy_reference
from game.rulesets.octal.ruleset import Octal, heap_sizes, moves_for
from systems.ai import Budget

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine

Position = tuple[int, ...]  # heap sizes, sorted


@cache
def values(code: str, n: int) -> tuple[int, ...]:
    return tuple(grundy_reference(parse_code(code), n))


def after(sizes: list[int], heap: int, count: int, left: int) -> Position:
    right = sizes[heap] - count - left
    rest = sizes[:heap] + sizes[heap + 1:] + [n for n in (left, right) if n]
    return tuple(sorted(rest))


@cache
def misere_wins(code: str, position: Position) -> bool:
    """Whether the side to move wins at misere play from `position` (search, memoised)."""
    game = parse_code(code)
    options = [after(list(position), i, c, left)
               for i, size in enumerate(position) for c, left in moves_for(game, size)]
    if not options:
        return True  # the previous side made the last move, and at misere that loses
    return any(not misere_wins(code, option) for option in options)


def nim_misere_target(sizes: Position) -> bool:
    """Whether `sizes` is a position the side to move loses at misere Nim (Bouton)."""
    if all(n <= 1 for n in sizes):
        return sum(sizes) % 2 == 1
    return reduce(xor, sizes, 0) == 0


def losing_for_mover(game: OctalGame, misere: bool, sizes: Position) -> bool:
    """Whether the side to move from `sizes` loses against perfect play."""
    if not misere:
        table = values(game.code, max(sizes, default=0)) if not game.nim else None
        return reduce(xor, (n if table is None else table[n] for n in sizes), 0) == 0
    if game.nim:
        return nim_misere_target(sizes)
    return not misere_wins(game.code, tuple(sorted(sizes)))


class PerfectAI:
    """Plays a winning move whenever the position has one; otherwise any legal move."""

    name = "perfect"
    OPTIONS: tuple[str, ...] = ()

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        ruleset = engine.ruleset
        if not isinstance(ruleset, Octal):
            raise UserError("the perfect AI plays octal games only; use minimax or heuristic.")
        sizes = heap_sizes(engine.world)
        actions = engine.legal_actions()
        for command in actions:
            assert isinstance(command, Take)
            nxt = after(sizes, command.heap, command.count, command.left)
            if losing_for_mover(ruleset.game, ruleset.misere, nxt):
                return command
        return actions[rng.randrange(len(actions))]
