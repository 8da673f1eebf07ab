"""The play controller without a display: clicks and keys become engine commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from components import Position
from game.commands import EndTurn, Move
from game.levels.loader import load_engine
from game.render.controllers.match import Controller
from game.session.match import make_seats
from game.session.replay import read_record
from game.session.think import Inline
from tests.helpers import draw_map

ROWS = ["D.d...", "......", "Q....q"]


def controller_for(tmp_path: Path, rows: list[str] = ROWS, red: str = "human",
                   blue: str = "human", sidecar: dict | None = None) -> Controller:
    path = draw_map(tmp_path / "tiny.png", rows, sidecar)
    engine = load_engine(path)
    seats = make_seats(engine, {"red": red, "blue": blue}, 0)
    # the AI's step run in this process: these tests are about the controller's rules (the
    # thinking process is tested in tests/unit/session/test_think.py and from the outside)
    return Controller(engine, seats, 0, tmp_path / "save.json", thinker=Inline())


def hero_at(ctrl: Controller, cell: tuple[int, int]) -> int:
    return ctrl.engine.world.at(*cell)[0]


def test_clicking_an_own_hero_selects_it_and_shows_reach_and_targets(tmp_path):
    ctrl = controller_for(tmp_path)
    ctrl.click((0, 0))
    view = ctrl.view()
    assert view.selected == hero_at(ctrl, (0, 0))
    assert (1, 0) in view.reach and (0, 1) in view.reach
    assert view.targets == frozenset()  # the blue duelist stands two cells off: out of reach


def test_clicking_an_enemy_hero_does_not_select_it(tmp_path):
    ctrl = controller_for(tmp_path)
    ctrl.click((2, 0))
    assert ctrl.selected is None
    assert "Select one of your heroes" in ctrl.message


def test_clicking_a_red_cell_submits_a_move(tmp_path):
    ctrl = controller_for(tmp_path)
    hero = hero_at(ctrl, (0, 0))
    ctrl.click((0, 0))
    ctrl.click((0, 1))
    assert ctrl.engine.history[-1].command == Move(hero, 0, 1)
    assert ctrl.engine.world.get(hero, Position) == Position(0, 1)


def test_clicking_a_blue_cell_submits_an_attack(tmp_path):
    ctrl = controller_for(tmp_path, ["Dd....", "......", "Q....q"])
    ctrl.click((0, 0))
    assert (1, 0) in ctrl.view().targets
    ctrl.click((1, 0))
    assert type(ctrl.engine.history[-1].command).__name__ == "Attack"


@pytest.mark.parametrize("name, ctrl_down", [("U", False), ("Z", True)])
def test_undo_keys_take_back_the_last_command(tmp_path, name, ctrl_down):
    ctrl = controller_for(tmp_path)
    ctrl.click((0, 0))
    ctrl.click((0, 1))
    ctrl.key(name, ctrl=ctrl_down)
    assert ctrl.engine.history == []
    ctrl.key("Y")
    assert len(ctrl.engine.history) == 1


@pytest.mark.parametrize("name", ["E", "SPACE"])
def test_end_turn_keys_pass_to_the_other_side(tmp_path, name):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.key(name)
    assert ctrl.engine.history[-1].command == EndTurn()
    assert ctrl.engine.side == "blue"


def test_two_humans_get_a_hand_over_screen_that_hides_the_board(tmp_path):
    ctrl = controller_for(tmp_path)
    ctrl.key("E")
    view = ctrl.view()
    assert view.hide_board and "blue to play" in view.modal[0]
    ctrl.click((3, 1))
    assert not ctrl.view().hide_board
    assert ctrl.engine.side == "blue"


def test_no_hand_over_against_an_ai(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.key("E")
    assert not ctrl.view().hide_board


def test_ai_seats_play_one_command_per_tick_unless_paused(tmp_path):
    ctrl = controller_for(tmp_path, red="random", blue="random")
    ctrl.key("K")
    assert not ctrl.tick()
    ctrl.key("K")
    assert ctrl.tick()
    assert len(ctrl.engine.history) == 1


def test_a_human_turn_is_not_played_by_tick(tmp_path):
    ctrl = controller_for(tmp_path)
    assert not ctrl.tick()


def test_every_command_is_autosaved(tmp_path):
    ctrl = controller_for(tmp_path)
    ctrl.click((0, 0))
    ctrl.click((0, 1))
    record = read_record(tmp_path / "save.json")
    assert len(record.commands) == 1 and record.rng_states


def test_quit_saves_and_asks_the_window_to_close(tmp_path):
    ctrl = controller_for(tmp_path)
    ctrl.key("Q")
    assert ctrl.quit and (tmp_path / "save.json").exists()


def test_restart_starts_the_map_over(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.key("E")
    generation = ctrl.generation
    ctrl.key("R")
    assert ctrl.view().modal[0] == "Restart this map?" and ctrl.generation == generation
    ctrl.key("R")
    assert ctrl.engine.history == [] and ctrl.generation == generation + 1


def test_restart_asks_first_and_any_other_key_keeps_the_game(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.key("E")
    played = ctrl.engine.commands()
    ctrl.key("R")
    ctrl.key("U")  # not a yes: the question goes, the game stays, U does not undo
    assert ctrl.engine.commands() == played and ctrl.view().modal == ()
    assert ctrl.message == "Kept playing."
    ctrl.key("N")
    ctrl.click((1, 1))  # a click is a no too
    assert ctrl.engine.commands() == played


def test_restart_of_an_unplayed_game_does_not_ask(tmp_path):
    ctrl = controller_for(tmp_path)
    generation = ctrl.generation
    ctrl.key("R")
    assert ctrl.generation == generation + 1 and ctrl.view().modal == ()


def test_next_and_previous_map_walk_the_folder(tmp_path):
    ctrl = controller_for(tmp_path)
    draw_map(tmp_path / "zz.png", ["B....q", "Q....b"])
    ctrl.key("N")
    assert ctrl.engine.map.path.name == "zz.png"
    ctrl.key("P")
    assert ctrl.engine.map.path.name == "tiny.png"


def test_game_over_shows_the_winner_and_reason(tmp_path):
    ctrl = controller_for(tmp_path, ["Dq....", "......", "Q....d"], blue="random",
                          sidecar={"units": {"buildings": {"hq": {"hp": 1}}}})
    ctrl.click((0, 0))
    ctrl.click((1, 0))
    assert ctrl.engine.over
    assert "red wins" in ctrl.view().modal[0]


def test_help_toggles_and_a_click_closes_it(tmp_path):
    ctrl = controller_for(tmp_path)
    ctrl.key("H")
    assert ctrl.view().modal[0] == "Keys"
    ctrl.click((0, 0))
    assert ctrl.view().modal == ()


def test_arrow_keys_do_nothing_where_the_ruleset_has_no_steps(tmp_path):
    ctrl = controller_for(tmp_path)
    ctrl.key("LEFT")
    assert ctrl.engine.history == []


def play_ai_turn(ctrl: Controller) -> None:
    while ctrl.tick():
        pass


def test_undo_after_an_ai_turn_goes_back_to_the_humans_last_command(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.click((0, 0))
    ctrl.click((0, 1))
    ctrl.key("E")
    play_ai_turn(ctrl)
    assert ctrl.engine.side == "red" and len(ctrl.engine.history) > 2
    ctrl.key("U")  # the AI's turn and red's end of turn: red to play, before E
    assert ctrl.engine.side == "red" and len(ctrl.engine.history) == 1
    assert not ctrl.tick()  # the AI does not play again by itself


def test_redo_replays_the_undone_ai_turn_not_a_new_one(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.key("E")
    play_ai_turn(ctrl)
    played = ctrl.engine.commands()
    ctrl.key("U")
    assert ctrl.engine.commands() == []
    ctrl.key("Y")
    assert ctrl.engine.commands() == played  # the same commands, in the same order
    assert ctrl.engine.side == "red"


def test_undo_with_no_human_command_behind_says_so(tmp_path):
    ctrl = controller_for(tmp_path, red="random", blue="human")
    ctrl.tick()
    before = ctrl.engine.commands()
    ctrl.key("U")
    assert ctrl.message == "Nothing to undo." and ctrl.engine.commands() == before
