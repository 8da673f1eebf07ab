"""The generic minimax, playing octal games through the Engine, agrees with Sprague-Grundy.

Every position of up to three heaps of up to 8 blocks, for 0.07, 0.137 and Nim: the side to
move wins exactly when the XOR of the heaps' Grundy values is not 0. The search knows nothing
of Grundy values; it only applies, looks and retracts.
"""

from __future__ import annotations

import itertools
from functools import reduce
from operator import xor

import pytest

from game.engine import Engine
from game.grundy.codes import parse_code
from game.grundy.solver import grundy_reference
from game.rulesets.octal.ruleset import moves_for, spec_map
from systems.ai.evaluate import weights
from systems.ai.minimax import Search

POSITIONS = [p for k in (1, 2, 3) for p in itertools.combinations_with_replacement(range(1, 9), k)]


def minimax_says_mover_wins(code: str, heaps: tuple[int, ...]) -> bool:
    engine = Engine.from_game_map(spec_map(code, list(heaps)))
    search = Search(engine, weights()[0])
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
