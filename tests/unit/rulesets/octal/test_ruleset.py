"""The octal ruleset on the engine: heaps of blocks, Take moves as the code allows, perfect play."""

from __future__ import annotations

import random
from functools import reduce
from operator import xor

import pytest

from game.commands import Take
from game.engine import Engine
from game.grundy.codes import parse_code
from game.rulesets.octal.ruleset import heap_sizes, moves_for, spec_map
from game.session.match import make_seats, play_match
from systems.ai.perfect import losing_for_mover, values


def engine_for(code, heaps, misere=False, seed=0):
    return Engine.from_game_map(spec_map(code, heaps, misere), seed=seed)


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
    engine = engine_for("0.07", [6])
    assert engine.submit(Take(0, 2, 1)).ok
    assert heap_sizes(engine.world) == [1, 3]


@pytest.mark.parametrize("command, words", [
    (Take(5, 1, 0), "There is no heap 5"),
    (Take(0, 4, 0), "does not allow taking 4"),
    (Take(0, 1, 9), "cannot take 1 after 9"),
    (Take(0, 1, 3), "taking 1 from a heap of 7 leaving 3 and 3"),
])
def test_an_illegal_take_is_refused_with_a_reason_and_changes_nothing(command, words):
    engine = engine_for("0.137", [7, 3])
    before = engine.world.snapshot()
    result = engine.submit(command)
    assert not result.ok and words in result.reason
    assert engine.world.snapshot() == before


def test_normal_play_the_side_that_cannot_move_loses_and_misere_it_wins():
    normal = engine_for("nim", [2])
    normal.submit(Take(0, 2, 0))
    assert normal.outcome == ("red", "blue cannot move")
    misere = engine_for("nim", [2], misere=True)
    misere.submit(Take(0, 2, 0))
    assert misere.outcome[0] == "blue"


def test_undo_restores_the_heaps():
    engine = engine_for("0.137", [9, 5])
    start = engine.world.snapshot()
    rng = random.Random(2)
    while not engine.over:
        actions = engine.legal_actions()
        engine.submit(actions[rng.randrange(len(actions))])
    while engine.history:
        engine.undo()
    assert engine.world.snapshot() == start


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
        engine = engine_for(code, heaps, misere, seed)
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


def test_a_replay_of_a_described_position_rebuilds_and_verifies(tmp_path, capsys):
    from game.cli import main

    replay = tmp_path / "o.json"
    assert main(["match", "octal:0.137:7,9,12", "--red", "perfect", "--blue", "random",
                 "--replay", str(replay)]) == 0
    assert main(["replay", str(replay), "--json"]) == 0
    assert '"verified": true' in capsys.readouterr().out


@pytest.mark.parametrize("args, words", [
    (["play", "--text", "--octal", "0.9"], "is not an octal game code"),
    (["play", "--text", "--octal", "0.137", "--heaps", "3,x"], "must be heap sizes"),
    (["play", "--text", "--octal", "0.137", "--heaps", "0"], "heap sizes from 1 to 128"),
    (["match", "octal:0.137:7", "--red", "perfect"], None),
])
def test_octal_command_line_errors_are_one_sentence(capsys, args, words):
    from game.cli import main

    code = main(args)
    err = capsys.readouterr().err
    if words is None:
        assert code == 0
    else:
        assert code == 2 and words in err
