"""The thinking process: an AI's step on a replica in a child, the same answers as in-process,
a level's hint found there too, and a client that is never made to wait for either."""

from __future__ import annotations

import gc

from game.commands import Command
from game.levels.loader import load_engine
from game.session.match import make_seats
from game.session.seat import Chosen, Forfeited
from game.session.think import Hinted, Inline, Outcome, Thinker, Worker, hint_of
from systems.ai import Budget
from tests.helpers import MAPS, until


def answer(thinker: Thinker) -> Outcome:
    """The thinking process's answer (its start-up alone is seconds on a loaded machine)."""
    return until(thinker.poll, "the thinking process's answer", 120)


def hinted(thinker: Thinker) -> Hinted:
    return until(thinker.poll_hint, "the thinking process's hint", 120)


def play(thinker: Thinker, actions: int = 24) -> list[Command]:
    """A match of AIs on crossing, with an undo, an undo and a redo at the 8th command (the
    replica takes back and applies what the client did)."""
    engine = load_engine(MAPS / "crossing.png", seed=3)
    seats = make_seats(engine, {"red": "heuristic", "blue": "minimax:nodes=200"}, 5)
    try:
        for index in range(actions):
            if engine.over:
                break
            thinker.ask(engine, seats[engine.side], Budget())
            outcome = answer(thinker)
            assert isinstance(outcome, Chosen), outcome
            assert engine.submit(outcome.command).ok
            if index == 8:
                engine.undo()
                engine.undo()
                engine.redo()
    finally:
        thinker.close()
    return engine.commands()


def test_the_thinking_process_chooses_what_the_step_in_this_process_chooses():
    assert play(Worker()) == play(Inline())


def test_asking_returns_at_once_and_cancel_stops_the_think():
    engine = load_engine(MAPS / "outpost.png", seed=0)
    seats = make_seats(engine, {"red": "minimax:think=30", "blue": "human"}, 0)
    worker = Worker()
    try:
        worker.ask(engine, seats["red"], Budget())  # a 30 s think per action
        assert worker.thinking and worker.poll() is None
        process = worker.process
        worker.cancel()
        assert not worker.thinking and not process.is_alive()
        assert engine.commands() == []  # the client's game is only changed by the client
    finally:
        worker.close()


def test_a_thinking_process_that_dies_is_a_forfeit_with_a_sentence():
    engine = load_engine(MAPS / "outpost.png", seed=0)
    seats = make_seats(engine, {"red": "minimax:think=30", "blue": "human"}, 0)
    worker = Worker()
    try:
        worker.ask(engine, seats["red"], Budget())
        worker.process.kill()
        outcome = answer(worker)
        assert isinstance(outcome, Forfeited) and outcome.side == "red"
        assert outcome.reason.startswith("its thinking process ended")
        quick = make_seats(engine, {"red": "random", "blue": "human"}, 0)["red"]
        worker.ask(engine, quick, Budget())
        assert isinstance(answer(worker), Chosen)  # the next question starts a new child
    finally:
        worker.close()


def test_the_thinking_process_finds_the_hint_the_solver_finds_here_after_a_move_and_an_undo():
    engine = load_engine("first-steps")
    worker = Worker()
    try:
        worker.ask_hint(engine, 3.0)
        assert worker.thinking and worker.poll() is None  # a hint is not a seat's answer
        first = hinted(worker)
        assert first.solved and first == hint_of(engine, 3.0)
        engine.submit(first.commands[0])
        engine.submit(first.commands[1])
        engine.undo()  # the replica takes back what the client took back
        worker.ask_hint(engine, 3.0)
        assert hinted(worker).commands == first.commands[1:]
        assert engine.commands() == [first.commands[0]]  # the client's game is untouched
    finally:
        worker.close()


def test_a_hint_search_is_stopped_by_cancel_and_a_dead_process_gives_a_sentence():
    engine = load_engine("first-steps")
    worker = Worker()
    try:
        worker.ask_hint(engine, 3.0)
        process = worker.process
        worker.cancel()
        assert not worker.thinking and not process.is_alive()
        assert worker.poll_hint() is None
        worker.ask_hint(engine, 3.0)
        worker.process.kill()
        failed = hinted(worker)
        assert not failed.solved and failed.failure.startswith("its thinking process ended")
        worker.ask_hint(engine, 3.0)
        assert hinted(worker).solved  # the next question starts a new child
    finally:
        worker.close()


def test_a_worker_or_controller_dropped_without_close_stops_its_child():
    """Nothing keeps a forgotten thinking process alive until the program ends (tests that
    built a window's controller and never closed it left one each)."""
    from game.render.controllers.match import Controller

    worker = Worker()
    worker.prepare()
    process = worker.process
    assert process.is_alive()
    del worker
    gc.collect()
    assert not process.is_alive()
    engine = load_engine(MAPS / "outpost.png", seed=0)
    ctrl = Controller(engine, make_seats(engine, {"red": "random", "blue": "human"}, 0), 0, None)
    process = ctrl.thinker.process  # started with a game that has an AI seat
    assert process.is_alive()
    del ctrl
    gc.collect()
    assert not process.is_alive()
