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


def end_turn(ctrl: Controller) -> None:
    """E, and E again when the controller asks about heroes that have not acted."""
    ctrl.key("E")
    if ctrl.confirming is not None:
        ctrl.key("E")


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
def test_end_turn_keys_ask_about_unused_heroes_then_pass_to_the_other_side(tmp_path, name):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.key(name)
    assert ctrl.view().modal[0] == "End the turn?"
    assert "duelist" in ctrl.view().modal[1]
    assert ctrl.engine.history == []  # nothing ended yet
    ctrl.key(name)
    assert ctrl.engine.history[-1].command == EndTurn()
    assert ctrl.engine.side == "blue"


def test_any_other_key_keeps_the_turn_and_a_hero_that_acted_is_not_asked_about(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.key("E")
    ctrl.key("H")  # not a yes: back to the board, and H is not taken as help either
    assert ctrl.confirming is None and not ctrl.show_help and ctrl.engine.history == []
    ctrl.click((0, 0))
    ctrl.click((0, 1))  # the duelist moves: used
    ctrl.key("E")
    assert ctrl.confirming is None and ctrl.engine.history[-1].command == EndTurn()


def test_the_end_turn_button_asks_and_a_second_click_on_it_ends_the_turn(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    assert ("end", "End turn (E)") in ctrl.view().buttons
    ctrl.button("end")
    assert ctrl.confirming is not None
    ctrl.button("end")
    assert ctrl.engine.side == "blue"
    assert ctrl.view().buttons == ()  # the AI's turn: no button, nobody is ready


def test_the_units_that_can_still_act_are_listed_and_a_click_on_one_selects_it(tmp_path):
    ctrl = controller_for(tmp_path, rows=["D.d...", "S.....", "Q....q"])
    duelist, sage = hero_at(ctrl, (0, 0)), hero_at(ctrl, (0, 1))
    ready = ctrl.view().ready
    assert [name for name, _label in ready] == [f"unit:{duelist}", f"unit:{sage}"]
    assert ready[1][1] == f"sage #{sage}: mp 3, ap 1"
    ctrl.button(f"unit:{sage}")
    assert ctrl.selected == sage
    for cell in ((0, 0), (1, 0), (0, 1), (1, 1)):
        ctrl.click(cell)  # each hero walks one cell
    assert ctrl.view().ready[0][1] == f"duelist #{duelist}: mp 3, ap 1"


def test_hovering_an_enemy_shows_where_it_can_move_and_strike_next_turn(tmp_path):
    ctrl = controller_for(tmp_path, rows=["D.....", "......", "Q...sq"])
    assert ctrl.view().threat_moves == frozenset()
    ctrl.hover((4, 2))  # the blue sage: 3 move points, range 3
    view = ctrl.view()
    assert (4, 0) in view.threat_moves and (1, 2) in view.threat_moves  # three steps away
    assert (0, 2) not in view.threat_moves  # the red hq's cell: nobody walks there
    assert (0, 0) in view.threat_strikes  # from (1, 2) or (2, 1): in range, in sight
    assert not view.threat_moves & view.threat_strikes
    ctrl.hover((0, 0))  # one of ours: no threat
    assert ctrl.view().threat_moves == frozenset()


def test_t_shows_every_enemys_threat_and_hides_it_again(tmp_path):
    ctrl = controller_for(tmp_path, rows=["D.....#d", "......##", "Q.....q."])
    ctrl.key("T")
    view = ctrl.view()
    assert view.threat_moves == frozenset()  # the blue duelist is walled in, the hq fixed...
    assert {(4, 2), (5, 1), (6, 0)} <= view.threat_strikes  # ...and the hq fires two cells
    assert (3, 2) not in view.threat_strikes and (6, 2) not in view.threat_strikes
    ctrl.key("T")
    assert ctrl.view().threat_moves == frozenset() == ctrl.view().threat_strikes


def test_zoom_and_pan_keys_scale_and_move_the_board_within_bounds(tmp_path):
    ctrl = controller_for(tmp_path)
    ctrl.key("RIGHT")
    assert ctrl.view().pan == (0.0, 0.0)  # the whole board fits: nothing to pan
    ctrl.key("PLUS")
    ctrl.key("PLUS")
    assert ctrl.view().zoom == pytest.approx(1.5625)
    for _ in range(20):
        ctrl.key("RIGHT")
    assert ctrl.view().pan == (3.0, 0.0)  # half the board's width: its edge stays in sight
    ctrl.zoom_by(0.1)
    assert ctrl.view().zoom == 1.0 and ctrl.view().pan == (0.0, 0.0)


def test_the_log_tells_each_command_once_and_keeps_the_whole_game(tmp_path):
    ctrl = controller_for(tmp_path, rows=["D.d...", "......", "Q....q"], blue="random")
    for _ in range(6):
        end_turn(ctrl)
        while ctrl.tick():
            pass
    rows = ctrl.chronicle.rows()
    assert rows[0] == ("heading", "Round 1 - red")
    assert ("heading", "Round 4 - blue") in rows
    assert len([r for r in rows if r[1].startswith("red ends the turn")]) == 6
    ctrl.key("PAGEUP")
    assert ctrl.view().log_scroll == 10
    ctrl.key("END")
    assert ctrl.view().log_scroll == 0
    ctrl.log_scroll_most = 4  # the window drew the log: four rows more than it shows
    ctrl.key("PAGEUP")
    assert ctrl.view().log_scroll == 4


def test_two_humans_get_a_hand_over_screen_that_hides_the_board(tmp_path):
    ctrl = controller_for(tmp_path)
    end_turn(ctrl)
    view = ctrl.view()
    assert view.hide_board and "blue to play" in view.modal[0]
    ctrl.click((3, 1))
    assert not ctrl.view().hide_board
    assert ctrl.engine.side == "blue"


def test_no_hand_over_against_an_ai(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    end_turn(ctrl)
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
    end_turn(ctrl)
    generation = ctrl.generation
    ctrl.key("R")
    assert ctrl.view().modal[0] == "Restart this map?" and ctrl.generation == generation
    ctrl.key("R")
    assert ctrl.engine.history == [] and ctrl.generation == generation + 1


def test_restart_asks_first_and_any_other_key_keeps_the_game(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    end_turn(ctrl)
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
    end_turn(ctrl)
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


def test_the_ai_thinks_in_its_process_while_help_and_undo_answer(tmp_path):
    path = draw_map(tmp_path / "tiny.png", ROWS)
    engine = load_engine(path)
    seats = make_seats(engine, {"red": "human", "blue": "minimax:think=30"}, 0)
    ctrl = Controller(engine, seats, 0, tmp_path / "save.json")  # the real thinking process
    try:
        ctrl.key("E")
        ctrl.key("E")  # the first E asks: no hero has acted
        assert engine.side == "blue"
        assert not ctrl.tick()  # asked: the search runs elsewhere, the tick returns at once
        assert ctrl.thinking and ctrl.view().message.startswith(
            "blue (minimax:think=30) is thinking (0s)")
        ctrl.key("H")
        assert ctrl.view().modal[0] == "Keys"  # help answers during the search
        ctrl.key("H")
        ctrl.key("U")  # the think is stopped, red's end of turn undone
        assert not ctrl.thinking and engine.side == "red" and engine.commands() == []
    finally:
        ctrl.close()


def test_space_while_the_ai_plays_rushes_the_rest_of_its_turn(tmp_path):
    ctrl = controller_for(tmp_path, blue="random")
    ctrl.key("E")
    ctrl.key("E")
    assert ctrl.engine.side == "blue" and not ctrl.rushing
    ctrl.key("SPACE")
    assert ctrl.rushing and "Space" not in ctrl.thinking_line()
    play_ai_turn(ctrl)
    assert ctrl.engine.side == "red" and not ctrl.rushing
