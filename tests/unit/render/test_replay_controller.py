"""The replay viewer's controller walks the recorded game forward and back exactly."""

from __future__ import annotations

from game.render.controllers.replay import ReplayController
from game.session.match import run_match


def played(seed: int = 3):
    engine, _result = run_match("maps/outpost.png", {"red": "random", "blue": "random"}, seed)
    return engine


def test_the_viewer_starts_at_the_first_position():
    engine = played()
    final = engine.world.snapshot()
    ctrl = ReplayController(engine)
    assert ctrl.position == 0 and ctrl.total > 0
    ctrl.key("END")
    assert ctrl.position == ctrl.total
    assert engine.world.snapshot() == final


def test_stepping_forward_then_back_returns_to_the_same_world():
    ctrl = ReplayController(played())
    start = ctrl.engine.world.snapshot()
    for _ in range(5):
        ctrl.key("RIGHT")
    assert ctrl.position == 5
    for _ in range(5):
        ctrl.key("LEFT")
    assert ctrl.engine.world.snapshot() == start


def test_playing_advances_speed_commands_per_second():
    ctrl = ReplayController(played(), fps=10)
    ctrl.key("SPACE")
    for _ in range(10):
        ctrl.tick()
    assert ctrl.position == ctrl.speed
    ctrl.key("SPACE")
    ctrl.tick()
    assert ctrl.position == ctrl.speed


def test_speed_keys_stay_within_bounds():
    ctrl = ReplayController(played())
    for _ in range(20):
        ctrl.key("PLUS")
    fastest = ctrl.speed
    for _ in range(20):
        ctrl.key("MINUS")
    assert fastest > ctrl.speed == 1


def test_the_end_shows_the_winner_and_q_quits():
    ctrl = ReplayController(played())
    ctrl.key("END")
    assert "wins" in ctrl.view().modal[0] or ctrl.view().modal[0] == "Draw"
    ctrl.key("Q")
    assert ctrl.quit
