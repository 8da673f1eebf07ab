"""Descent: the ball rolls down, pushes single blocks, and is blocked by everything else."""

from __future__ import annotations

import pytest

from game.commands import Step
from tests.helpers import descent_board, descent_heights

# (name, rows, move, legal, ball after, heights after or None when unchanged)
CASES = [
    ("steps down", ["2 1 0", "2 2 0", "0 0 0"], "r", True, (1, 0), None),
    ("steps level", ["1 1 0", "1 1 0", "0 0 0"], "r", True, (1, 0), None),
    ("falls several levels", ["3 0 0", "3 3 3", "3 3 0"], "r", True, (1, 0), None),
    ("pushes a block one higher", ["1 2 0", "3 3 3", "3 3 0"], "r", True, (1, 0),
     [[1, 1, 1], [3, 3, 3], [3, 3, 0]]),
    ("pushes onto a lower cell", ["2 3 0", "3 3 3", "3 3 0"], "r", True, (1, 0),
     [[2, 2, 1], [3, 3, 3], [3, 3, 0]]),
    ("a block cannot land higher than the ball", ["1 2 2", "3 3 3", "3 3 0"], "r", False,
     (0, 0), None),
    ("two higher is too tall", ["1 3 0", "3 3 3", "3 3 0"], "r", False, (0, 0), None),
    ("nothing is pushed off the board", ["0 0 1", "0 0 0", "0 0 0"], "r", True, (1, 0), None),
    ("the ball cannot leave the board", ["0 0 0", "0 0 0", "0 0 0"], "u", False, (0, 0), None),
]


@pytest.mark.parametrize("name, rows, move, legal, ball, after", CASES, ids=[c[0] for c in CASES])
def test_descent_step(name, rows, move, legal, ball, after):
    engine = descent_board(rows)
    before = descent_heights(engine)
    result = engine.submit(Step(move))
    assert result.ok is legal
    assert engine.ruleset.ball(engine.world) == ball
    assert descent_heights(engine) == (after if after is not None else before)


def test_pushing_off_the_edge_is_refused():
    edge = descent_board(["0 1 0", "0 0 0", "0 0 0"], start=[0, 0])
    assert edge.submit(Step("r")).ok  # the block at (1,0) slides to (2,0)
    assert descent_heights(edge)[0] == [0, 0, 1]
    assert not edge.submit(Step("r")).ok  # now it would leave the board


def test_tall_stacks_push_only_with_the_option():
    rows = ["1 3 0", "3 3 3", "3 3 0"]
    assert not descent_board(rows).submit(Step("r")).ok
    engine = descent_board(rows, push_stack=True)
    assert engine.submit(Step("r")).ok
    assert descent_heights(engine)[0] == [1, 1, 2]


def test_reaching_the_exit_wins():
    engine = descent_board(["1 0", "0 0"])
    engine.submit(Step("r"))
    engine.submit(Step("d"))
    assert engine.outcome == ("player", "the ball reached the exit")


def test_a_sidecar_may_move_start_and_exit():
    engine = descent_board(["0 0", "0 0"], start=[1, 1], exit=[0, 0])
    assert engine.ruleset.ball(engine.world) == (1, 1)
    engine.submit(Step("u"))
    engine.submit(Step("l"))
    assert engine.over


def test_a_ball_with_no_step_left_has_lost_and_undo_brings_the_level_back():
    from components.match import LOST
    from game import MAPS
    from game.commands import Step
    from game.levels.loader import load_engine

    engine = load_engine(MAPS / "descent" / "level-01.txt")
    for direction in "drdld":
        assert engine.submit(Step(direction)).ok
    assert engine.legal_actions() == []
    assert engine.outcome is not None and engine.outcome.winner == LOST
    assert engine.ruleset.verdict(engine.world) == -1
    assert engine.ruleset.report(engine.world)["status"] == "lost"
    engine.undo()
    assert engine.outcome is None and engine.legal_actions()
