"""Perfect play for octal games: Grundy values decide every move, so it never loses a won game."""

from __future__ import annotations

import random
from functools import reduce
from operator import xor

import pytest

from game.grundy.codes import parse_code
from game.rulesets.octal.perfect import losing_for_mover, values
from game.rulesets.octal.ruleset import moves_for
from game.session.match import make_seats, play_match
from tests.helpers import octal_engine


def test_the_first_values_of_0_137_drive_the_verdict():
    table = values("0.137", 12)
    assert table[:12] == (0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2)
    game = parse_code("0.137")
    assert losing_for_mover(game, False, (4,)) and not losing_for_mover(game, False, (5,))
    assert losing_for_mover(game, False, (2, 1))


@pytest.mark.parametrize("code", ["0.07", "0.137", "nim", "0.333"])
@pytest.mark.parametrize("misere", [False, True])
def test_perfect_never_loses_from_a_winning_position(code, misere):
    rng = random.Random(f"{code}{misere}")
    game = parse_code(code)
    played = 0
    for seed in range(40):
        heaps = [rng.randint(1, 9) for _ in range(rng.randint(1, 3))]
        if not any(moves_for(game, n) for n in heaps):
            continue  # nobody can move: such a start is refused
        if losing_for_mover(game, misere, tuple(sorted(heaps))):
            continue
        engine = octal_engine(code, heaps, misere, seed)
        seats = make_seats(engine, {"red": "perfect", "blue": rng.choice(["random", "perfect"])},
                           seed)
        result = play_match(engine, seats, seed)
        assert result.winner == "red", (heaps, result)
        played += 1
    assert played >= 10


def test_perfect_nim_matches_the_xor_rule():
    game = parse_code("nim")
    for heaps in [(1, 2, 3), (4, 4), (5, 6, 3), (7,)]:
        assert losing_for_mover(game, False, heaps) == (reduce(xor, heaps) == 0)
