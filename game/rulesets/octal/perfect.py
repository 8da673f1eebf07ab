"""Perfect play for octal games, and the octal ruleset's evaluator edge built on it.

Normal play follows Sprague-Grundy: the XOR of the heaps' values is 0 exactly when the side to
move loses. Misere play of Nim follows Bouton's rule; other misere games are searched
exhaustively over positions (multisets of heap sizes), which is exact and fast for the heap
sizes a map can hold. `Evaluation` (the spec's `evaluator` edge) scores a position by who wins
it under perfect play, so minimax and MCTS are honest on octal, and the perfect AI plays by it.
"""

from __future__ import annotations

from functools import cache, reduce
from operator import xor
from typing import TYPE_CHECKING

from components.match import DRAW
from game.errors import UserError
from game.grundy.codes import OctalGame, parse_code
from game.grundy.solver import grundy_reference
from game.rulesets.octal.ruleset import Octal, heap_sizes, moves_for

if TYPE_CHECKING:
    from game.engine import Engine

Position = tuple[int, ...]  # heap sizes, sorted
WIN = 1_000_000.0  # a won game, less the plies to it (the searches' scale, data/ai.yaml's win)


@cache
def values(code: str, n: int) -> tuple[int, ...]:
    return tuple(grundy_reference(parse_code(code), n))


def after(sizes: list[int], heap: int, count: int, left: int) -> Position:
    """The heap sizes after taking `count` from `heap` with `left` blocks before the gap."""
    right = sizes[heap] - count - left
    rest = sizes[:heap] + sizes[heap + 1:] + [n for n in (left, right) if n]
    return tuple(sorted(rest))


MISERE_WORK = 500_000  # positions the misere searches of one code may generate in a process
_misere: dict[str, dict[Position, bool]] = {}  # code -> position -> the mover wins
_work: dict[str, int] = {}  # code -> positions its searches generated so far


def misere_wins(code: str, position: Position) -> bool:
    """Whether the side to move wins at misere play from `position`: a search over positions,
    memoised per code, with its own stack (a deep position would pass Python's recursion
    limit), generating at most MISERE_WORK positions per code in a process (so an AI asking
    about every move stops after seconds, not once per move), past which it is a UserError:
    misere play has no Grundy shortcut, and big heaps have more positions than any search
    gets through."""
    known = _misere.setdefault(code, {})
    if position in known:
        return known[position]
    game = parse_code(code)

    def options(at: Position) -> list[Position]:
        if _work.get(code, 0) > MISERE_WORK:
            raise UserError(
                f"misere {code} from heaps {', '.join(map(str, position))}: perfect play "
                f"needs more than {MISERE_WORK:,} positions searched; play smaller heaps, "
                "normal play, or a seat that does not need perfect play.")
        found = [after(list(at), i, c, left)
                 for i, size in enumerate(at) for c, left in moves_for(game, size)]
        _work[code] = _work.get(code, 0) + len(found) + 1
        return found

    first = options(position)
    stack: list[tuple[Position, list[Position], bool]] = [(position, first, not first)]
    while stack:
        at, todo, last = stack[-1]
        if not todo:  # every option wins for the opponent, or there is none: at misere the
            known[at] = last  # side that made the last move loses, so the mover wins
            stack.pop()
            continue
        option = todo[-1]
        if option not in known:
            found = options(option)
            stack.append((option, found, not found))
            continue
        if not known[option]:  # a move to a position the opponent loses: `at` wins
            known[at] = True
            stack.pop()
        else:
            todo.pop()
    return known[position]


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


class Evaluation:
    """The octal evaluator edge: a decided game is +-(WIN - ply); an undecided one is +1 for
    the side that wins it under perfect play and -1 for the other (exact, so `exact`)."""

    win = WIN
    tie = 0.5
    scale = 1.0
    exact = True

    def __call__(self, engine: Engine, side: str, ply: int = 0) -> float:
        outcome = engine.outcome
        if outcome is not None:
            if outcome.winner == DRAW:
                return 0.0
            return (WIN - ply) if outcome.winner == side else (ply - WIN)
        ruleset = engine.ruleset
        assert isinstance(ruleset, Octal)
        sizes = tuple(sorted(heap_sizes(engine.world)))
        mover_wins = not losing_for_mover(ruleset.game, ruleset.misere, sizes)
        return 1.0 if mover_wins == (side == engine.side) else -1.0
