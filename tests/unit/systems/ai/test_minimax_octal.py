"""The generic minimax, playing octal games through the Engine, agrees with Sprague-Grundy.

Every position of up to three heaps of up to 8 blocks, for 0.07, 0.137 and Nim: the side to
move wins exactly when the XOR of the heaps' Grundy values is not 0. The search is given an
evaluator that knows nothing of Grundy values (it scores decided games only); it only applies,
looks and retracts. With octal's own evaluator (Grundy values, the spec's `evaluator` edge),
one ply is enough to move to a position the other side loses.
"""

from __future__ import annotations

import itertools
import random
from functools import reduce
from operator import xor

import pytest

from game.engine import Engine
from game.grundy.codes import parse_code
from game.grundy.solver import grundy_reference
from game.rulesets.octal.perfect import WIN, losing_for_mover
from game.rulesets.octal.ruleset import heap_sizes, moves_for, spec_map
from systems.ai import Budget
from systems.ai.minimax import MinimaxAI, Search

POSITIONS = [p for k in (1, 2, 3) for p in itertools.combinations_with_replacement(range(1, 9), k)]


class DecidedOnly:
    """Scores decided games only: everything else is 0, so the search must see every end."""

    win, tie, scale, exact = WIN, 0.5, 1.0, False

    def __call__(self, engine: Engine, side: str, ply: int = 0) -> float:
        outcome = engine.outcome
        if outcome is None:
            return 0.0
        return (WIN - ply) if outcome.winner == side else (ply - WIN)


def minimax_says_mover_wins(code: str, heaps: tuple[int, ...]) -> bool:
    engine = Engine.from_game_map(spec_map(code, list(heaps)))
    search = Search(engine, DecidedOnly())
    key = search.hasher.value if search.hasher is not None else 0
    # Deep enough to reach the end of every line: each move takes at least one block.
    value = search.value(sum(heaps), -float("inf"), float("inf"), 0, key)
    engine.world.close()
    return value > 0


@pytest.mark.slow
@pytest.mark.parametrize("code", ["0.07", "0.137", "nim"])
def test_minimax_verdicts_equal_sprague_grundy_verdicts(code):
    game = parse_code(code)
    values = list(range(9)) if game.nim else grundy_reference(game, 8)
    checked = 0
    for heaps in POSITIONS:
        if not any(moves_for(game, n) for n in heaps):
            continue  # nobody can move: refused as a start
        grundy_win = reduce(xor, (values[n] for n in heaps)) != 0
        assert minimax_says_mover_wins(code, heaps) == grundy_win, heaps
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize("heaps", [(5, 7), (3, 4, 9), (9,), (2, 6, 6)])
def test_minimax_with_the_octal_evaluator_moves_to_a_losing_position_at_one_ply(heaps):
    engine = Engine.from_game_map(spec_map("0.137", list(heaps)))
    game = engine.ruleset.game  # type: ignore[attr-defined]
    assert not losing_for_mover(game, False, tuple(sorted(heaps)))  # a winning move exists
    ai = MinimaxAI(depth=1, plan="action")
    command = ai.choose(engine, random.Random(0), Budget())
    engine.submit(command)
    assert losing_for_mover(game, False, tuple(sorted(heap_sizes(engine.world))))
    assert ai.last is not None and ai.last.value == 1.0  # not every leaf 0
