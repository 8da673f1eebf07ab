"""The Engine: submit refuses illegal commands untouched; undo, redo and the queue are exact."""

from __future__ import annotations

import random

from game.commands import EndTurn, Move
from game.levels.loader import load_engine
from game.levels.maps import DEFAULT_MAP
from tests.helpers import random_playout


def test_undo_then_redo_returns_to_the_same_world():
    engine = load_engine(DEFAULT_MAP, seed=1)
    random_playout(engine, random.Random(0), 60)
    after = engine.world.snapshot()
    for _ in range(10):
        engine.undo()
    for _ in range(10):
        assert engine.redo() is not None
    assert engine.world.snapshot() == after


def test_a_new_command_clears_the_redo_stack():
    engine = load_engine(DEFAULT_MAP)
    engine.submit(EndTurn())
    engine.undo()
    assert engine.redo_stack
    engine.submit(engine.legal_actions()[0])
    assert engine.redo() is None


def test_undo_with_no_history_does_nothing():
    engine = load_engine(DEFAULT_MAP)
    assert engine.undo() is None and engine.redo() is None


def test_queued_commands_run_in_order_and_a_refused_one_does_not_stop_the_rest():
    engine = load_engine(DEFAULT_MAP)
    engine.enqueue(Move(9999, 0, 0))
    engine.enqueue(EndTurn())
    engine.enqueue(EndTurn())
    results = engine.update()
    assert [r.ok for r in results] == [False, True, True]
    assert engine.side == "red" and len(engine.history) == 2


def test_the_event_log_follows_undo():
    engine = load_engine(DEFAULT_MAP)
    engine.submit(EndTurn())
    logged = list(engine.events())
    assert logged and type(logged[0]).__name__ == "TurnEnded"
    engine.undo()
    assert list(engine.events()) == []


def test_retracting_to_a_depth_at_once_is_retracting_one_command_at_a_time():
    engine = load_engine(DEFAULT_MAP, seed=1)
    random_playout(engine, random.Random(0), 30)
    worlds = {}
    for depth in (30, 20, 5, 0):
        while len(engine.history) > depth:
            engine.retract()
        worlds[depth] = engine.world.snapshot()
    random_playout(engine, random.Random(0), 30)  # the same commands again
    for depth in (30, 20, 5, 0):
        engine.retract_to(depth)
        assert len(engine.history) == depth and engine.world.snapshot() == worlds[depth]
    engine.retract_to(3)  # nothing past it: nothing happens
    assert engine.world.snapshot() == worlds[0] and not engine.history
