"""The octal ruleset on the engine: heaps of blocks, Take moves as the code allows, who wins."""

from __future__ import annotations

import random

import pytest

from game.commands import Take
from game.grundy.codes import parse_code
from game.rulesets.octal.ruleset import heap_sizes, moves_for
from tests.helpers import octal_engine, random_playout, undo_all


@pytest.mark.parametrize("code, size, expected", [
    ("0.137", 1, [(1, 0)]),                        # d1 = 1: take 1 only when it is the whole heap
    ("0.137", 2, [(2, 0)]),
    ("0.137", 3, [(2, 1), (3, 0)]),
    ("0.07", 4, [(2, 2), (2, 1)]),                 # take 2 leaving one heap of 2, or 1 and 1
    ("nim", 3, [(1, 2), (2, 1), (3, 0)]),
])
def test_moves_follow_the_digits_of_the_code(code, size, expected):
    assert moves_for(parse_code(code), size) == expected


def test_0_137_on_a_heap_of_five_allows_each_kind_of_move():
    # d1=1 (whole heap of 1), d2=3 (take 2 leaving 0 or 1 heap), d3=7 (take 3: 0, 1 or 2 heaps)
    assert moves_for(parse_code("0.137"), 5) == [(2, 3), (3, 2), (3, 1)]


def test_taking_from_the_middle_splits_a_row_into_two_heaps():
    engine = octal_engine("0.07", [6])
    assert engine.submit(Take(0, 2, 1)).ok
    assert heap_sizes(engine.world) == [1, 3]


@pytest.mark.parametrize("command, words", [
    (Take(5, 1, 0), "There is no heap 5"),
    (Take(0, 4, 0), "does not allow taking 4"),
    (Take(0, 1, 9), "cannot take 1 after 9"),
    (Take(0, 1, 3), "taking 1 from a heap of 7 leaving 3 and 3"),
])
def test_an_illegal_take_is_refused_with_a_reason_and_changes_nothing(command, words):
    engine = octal_engine("0.137", [7, 3])
    before = engine.world.snapshot()
    result = engine.submit(command)
    assert not result.ok and words in result.reason
    assert engine.world.snapshot() == before


def test_normal_play_the_side_that_cannot_move_loses_and_misere_it_wins():
    normal = octal_engine("nim", [2])
    normal.submit(Take(0, 2, 0))
    assert normal.outcome == ("red", "blue cannot move")
    misere = octal_engine("nim", [2], misere=True)
    misere.submit(Take(0, 2, 0))
    assert misere.outcome[0] == "blue"


def test_undo_restores_the_heaps():
    engine = octal_engine("0.137", [9, 5])
    start = engine.world.snapshot()
    random_playout(engine, random.Random(2), limit=100)  # 14 blocks: every game ends sooner
    assert engine.over
    undo_all(engine)
    assert engine.world.snapshot() == start


def test_a_take_from_a_heap_that_is_not_there_is_described_not_raised():
    from game.commands import Take
    from game.levels.loader import load_engine

    engine = load_engine("octal:0.137:7,9")
    assert engine.ruleset.describe_command(engine.world, Take(5, 1, 0)) == str(
        Take(5, 1, 0).to_json())
    assert "take 1 from heap 0 (of 7)" in engine.ruleset.describe_command(
        engine.world, Take(0, 1, 6))
