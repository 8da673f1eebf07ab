"""The level window's controller without a display: steps, undo, win and lose screens, stars,
hints and walking to the next level."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import ROOT
from game.commands import Step
from game.levels.loader import load_engine
from game.render.controllers.level import LevelController, clock_text, stars_for
from game.session.think import Hinted, Inline

FIRST = Path("maps/puzzles/first-steps.keke")
DESCENT = Path("maps/descent/level-05.txt")
KEKE_DEMO = ROOT.parent / "shared" / "benchmarks" / "keke" / "demo_LEVELS.json"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def controller(path: Path = FIRST, level: str | None = None, **kw) -> LevelController:
    return LevelController(load_engine(path, level=level), path, level, **kw)


def press(ctrl: LevelController, keys: str) -> None:
    for name in keys.split():
        ctrl.key(name)


def test_arrow_keys_step_and_count_moves():
    ctrl = controller()
    press(ctrl, "RIGHT D")
    assert ctrl.moves == 2
    assert ctrl.view().info[0].startswith("Moves 2")


def test_undo_and_redo_take_moves_back_and_forth():
    ctrl = controller()
    press(ctrl, "RIGHT RIGHT U")
    assert ctrl.moves == 1
    press(ctrl, "Y")
    assert ctrl.moves == 2
    ctrl.key("Z", ctrl=True)
    assert ctrl.moves == 1


def test_winning_shows_the_win_screen_and_stops_the_clock():
    clock = Clock()
    ctrl = controller(clock=clock)
    clock.now += 7
    press(ctrl, "RIGHT " * 5)
    assert ctrl.won
    modal = ctrl.view().modal
    assert modal[0] == "Level complete!"
    assert "5 moves in 0:07" in modal
    clock.now += 60
    assert clock_text(ctrl.elapsed()) == "0:07"


def test_moves_after_a_win_are_refused_but_undo_reopens_the_level():
    ctrl = controller()
    press(ctrl, "RIGHT " * 5 + "LEFT")
    assert ctrl.moves == 5 and "over" in ctrl.message
    press(ctrl, "U")
    assert not ctrl.engine.over and ctrl.view().modal == ()


def test_a_level_with_no_you_left_shows_the_lose_screen(tmp_path):
    # Baba walks onto the skull: SKULL IS DEFEAT, and nothing IS YOU any more.
    level = tmp_path / "defeat.keke"
    level.write_text("__________\n_bs....f._\n_........_\n_B12.S14._\n_F13....._\n"
                     "__________\n")
    ctrl = controller(level)
    press(ctrl, "RIGHT")
    assert ctrl.lost
    assert ctrl.view().modal[0] == "Level lost"


def test_wait_keys_wait_in_puzzles_and_are_refused_in_descent():
    ctrl = controller()
    press(ctrl, "PERIOD SPACE")
    assert ctrl.moves == 2
    ctrl = controller(DESCENT)
    press(ctrl, "SPACE")
    assert ctrl.moves == 0 and "no wait" in ctrl.message


def test_next_level_walks_the_folder_in_name_order_and_wraps():
    ctrl = controller()
    files = sorted(FIRST.parent.glob("*.keke"))
    press(ctrl, "N")
    assert ctrl.path == files[(files.index(FIRST) + 1) % len(files)]
    assert ctrl.moves == 0
    press(ctrl, "P P")
    assert ctrl.path == files[files.index(FIRST) - 1]


def test_next_level_from_the_win_screen_starts_the_next_one():
    ctrl = controller()
    press(ctrl, "RIGHT " * 5 + "RETURN")
    assert ctrl.path != FIRST and not ctrl.engine.over and ctrl.view().modal == ()


@pytest.mark.skipif(not KEKE_DEMO.exists(), reason="the shared Keke demo set is not here")
def test_next_level_in_a_keke_set_goes_to_the_next_id():
    from game.rulesets.puzzle.keke import read_set

    ids = [lvl.id for lvl in read_set(KEKE_DEMO)]
    ctrl = controller(KEKE_DEMO, ids[0])
    press(ctrl, "N")
    assert (ctrl.path, ctrl.level) == (KEKE_DEMO, ids[1])


def test_restart_puts_the_level_back_as_loaded():
    ctrl = controller()
    press(ctrl, "RIGHT DOWN")
    start = load_engine(FIRST).world.snapshot()
    press(ctrl, "R")
    assert ctrl.view().modal[0] == "Restart this map?" and ctrl.moves == 2  # asked first
    press(ctrl, "R")
    assert ctrl.moves == 0 and ctrl.engine.world.snapshot() == start


def test_quitting_an_unfinished_level_asks_first_and_any_other_key_stays():
    ctrl = controller()
    press(ctrl, "Q")
    assert ctrl.quit  # nothing played: nothing to lose
    ctrl = controller()
    press(ctrl, "RIGHT Q")
    assert not ctrl.quit and ctrl.view().modal[0] == "Quit this level?"
    press(ctrl, "LEFT")  # not a yes: the question goes, and the key does nothing else
    assert not ctrl.quit and ctrl.moves == 1 and ctrl.view().modal == ()
    press(ctrl, "Q RETURN")
    assert ctrl.quit


def test_the_close_button_asks_once_then_closes():
    ctrl = controller()
    press(ctrl, "RIGHT")
    assert ctrl.ask_to_quit() and ctrl.view().modal[0] == "Quit this level?"
    assert not ctrl.ask_to_quit()  # pressed again: the window closes


def test_descent_levels_show_stars_and_rate_the_win():
    ctrl = controller(DESCENT)
    assert any("3*: 10" in line for line in ctrl.view().info)
    for letter in "rddddrdrrr":
        ctrl.key({"u": "UP", "d": "DOWN", "l": "LEFT", "r": "RIGHT"}[letter])
    assert ctrl.won
    assert "3 stars" in ctrl.view().modal


@pytest.mark.parametrize("moves, stars", [(10, 3), (11, 2), (15, 2), (16, 1), (30, 1), (31, 0)])
def test_stars_follow_the_sidecar_thresholds(moves, stars):
    assert stars_for({3: 10, 2: 15, 1: 30}, moves) == stars


def test_hint_names_the_solvers_next_move_and_following_it_keeps_the_plan():
    ctrl = controller(DESCENT, thinker=Inline())
    press(ctrl, "I")
    assert ctrl.view().message.startswith("looking for a hint")  # shown until the next tick
    ctrl.tick()
    assert ctrl.view().hint == "r"
    assert "right" in ctrl.message
    planned = len(ctrl.plan)
    press(ctrl, "RIGHT")
    assert ctrl.view().hint == "" and len(ctrl.plan) == planned - 1
    press(ctrl, "SLASH")
    assert ctrl.view().hint == "d"


class Held(Inline):
    """A thinker whose hint comes only when the test lets it (as if the solver took long)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0
        self.cancelled = 0
        self.held: Hinted | None = None
        self.closed = False

    def ask_hint(self, engine, seconds):
        super().ask_hint(engine, seconds)
        self.held, self._answer = self.poll_hint(), None
        self.asked += 1

    def release(self) -> None:
        self._answer, self.held = self.held, None

    def cancel(self) -> None:
        self.cancelled += 1
        super().cancel()

    def close(self) -> None:
        self.held = None
        self.closed = True
        super().close()


def test_the_window_answers_keys_while_the_hint_is_looked_for_and_shows_it_when_it_comes():
    thinker = Held()
    ctrl = controller(thinker=thinker)
    press(ctrl, "I")
    ctrl.tick()
    assert thinker.asked == 1 and ctrl.hinting and ctrl.view().hint == ""
    press(ctrl, "H")
    assert ctrl.view().modal[0] == "Keys"  # help opens meanwhile
    assert ctrl.view().message.startswith("looking for a hint")
    press(ctrl, "I")
    assert thinker.asked == 1  # asking again while it looks does not start over
    thinker.release()
    ctrl.tick()
    press(ctrl, "H")
    assert not ctrl.hinting and ctrl.view().hint == "r" and "right" in ctrl.view().message


@pytest.mark.parametrize("keys", ["U", "RIGHT", "R"])
def test_undo_a_move_or_restart_stop_the_search_and_no_hint_shows(keys):
    thinker = Held()
    ctrl = controller(thinker=thinker)
    press(ctrl, "RIGHT I")
    press(ctrl, keys)
    if keys == "R":
        press(ctrl, "Y")  # restart asks first
    assert thinker.cancelled >= 1 and not ctrl.hinting
    thinker.release()  # an answer that still came would be for a position gone
    ctrl.tick()
    assert ctrl.view().hint == "" and not ctrl.view().message.startswith("hint")


def test_a_hint_that_arrives_for_a_position_no_longer_on_the_board_is_dropped():
    thinker = Held()
    ctrl = controller(thinker=thinker)
    press(ctrl, "I")
    ctrl.engine.submit(Step("r"))  # the position changes behind the controller's back
    thinker.release()
    ctrl.tick()
    assert ctrl.view().hint == "" and not ctrl.hinting


def test_quitting_the_window_stops_the_search():
    thinker = Held()
    ctrl = controller(thinker=thinker)
    press(ctrl, "I")
    ctrl.close()
    assert thinker.closed


def test_the_clock_ticks_the_screen_once_a_second():
    clock = Clock()
    ctrl = controller(clock=clock)
    version = ctrl.version
    clock.now += 0.5
    ctrl.tick()
    assert ctrl.version == version
    clock.now += 0.6
    ctrl.tick()
    assert ctrl.version == version + 1


def test_help_toggles_with_h_and_closes_on_a_click():
    ctrl = controller()
    press(ctrl, "H")
    assert ctrl.view().modal[0] == "Keys"
    ctrl.click((0, 0))
    assert ctrl.view().modal == ()


def test_q_quits():
    ctrl = controller()
    press(ctrl, "Q")
    assert ctrl.quit


def where_kind(ctrl: LevelController, kind: str) -> tuple[int, int]:
    from components import Kind, Position

    world = ctrl.engine.world
    return next((p.x, p.y) for e, (p, k) in world.query(Position, Kind) if k.name == kind)


def test_hovering_a_puzzle_thing_says_what_the_rules_make_it_and_a_word_its_rule():
    ctrl = controller()
    ctrl.hover(where_kind(ctrl, "baba"))
    assert any(line.startswith("baba #") and line.endswith(": YOU") for line in ctrl.view().tooltip)
    ctrl.hover(where_kind(ctrl, "flag"))
    assert any(line.endswith(": WIN") for line in ctrl.view().tooltip)
    from components import Position, Word

    world = ctrl.engine.world
    word = next((p.x, p.y) for e, (p, w) in world.query(Position, Word) if w.text == "FLAG")
    ctrl.hover(word)
    assert ctrl.view().tooltip == ("word FLAG: FLAG IS WIN",)
    ctrl.hover(None)
    assert ctrl.view().tooltip == ()


def test_the_tooltip_follows_the_rules_as_they_change():
    from game.commands import Step
    from tests.helpers import keke_level

    engine = keke_level([".....", "F13..", "..b..", ".....", "B12.f"])
    ctrl = LevelController(engine, "test.keke")
    ctrl.hover((4, 4))
    assert ctrl.view().tooltip[-1].endswith(": WIN")
    ctrl.submit(Step("u"))  # pushes WIN out of FLAG IS WIN
    assert ctrl.view().tooltip[-1].endswith(": no property now")


def test_hovering_a_descent_column_says_its_height_the_ball_and_the_exit():
    ctrl = controller(DESCENT)
    world = ctrl.engine.world
    from components import Height, Position

    ball = world.resource("ball")
    pos, z = world.get(ball, Position), world.get(ball, Height).z
    ctrl.hover((pos.x, pos.y))
    lines = ctrl.view().tooltip
    assert lines[0] == f"column {pos.x},{pos.y}: {z} block{'s' * (z != 1)} high"
    assert lines[1] == f"ball #{ball} at height {z}"
    ctrl.hover(tuple(world.resource("exit")))
    assert ctrl.view().tooltip[-1] == "the exit: bring the ball here"


def test_no_tooltip_under_the_help_box():
    ctrl = controller()
    ctrl.hover(where_kind(ctrl, "baba"))
    ctrl.key("H")
    assert ctrl.view().tooltip == ()
