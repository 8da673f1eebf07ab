"""Octal games in the window's controller: click a block, a digit, Enter takes (no display)."""

from __future__ import annotations

import pytest

from game.commands import Take
from game.levels.loader import load_engine
from game.render.controllers.take import TakeController
from game.rulesets.octal.ruleset import heap_sizes, spec_map
from game.session.match import make_seats
from game.session.think import Inline


def controller(code: str = "0.137", heaps: tuple[int, ...] = (7, 9, 12),
               blue: str = "human") -> TakeController:
    engine = load_engine(str(spec_map(code, list(heaps)).path))
    return TakeController(engine, make_seats(engine, {"red": "human", "blue": blue}, 0), 0, None,
                          thinker=Inline())


def test_click_digit_and_enter_take_blocks_from_the_clicked_one_on():
    ctrl = controller()
    ctrl.click((2, 1))
    ctrl.key("_3")
    assert ctrl.view().marks == {(2, 1), (3, 1), (4, 1)}
    ctrl.key("RETURN")
    assert ctrl.engine.history[-1].command == Take(1, 3, 2)
    assert heap_sizes(ctrl.engine.world) == [7, 2, 4, 12]
    assert ctrl.picked is None and ctrl.count == 1


def test_a_take_the_code_forbids_shows_the_reason_and_changes_nothing():
    ctrl = controller()
    ctrl.click((0, 0))
    ctrl.key("_4")  # 0.137 takes at most 3
    ctrl.key("RETURN")
    assert not ctrl.engine.history
    assert "cannot take 4" in ctrl.message or "does not allow" in ctrl.message


def test_clicking_the_picked_block_again_drops_it_and_empty_cells_say_so():
    ctrl = controller()
    ctrl.click((1, 0))
    assert ctrl.picked == (0, 1)
    ctrl.click((1, 0))
    assert ctrl.picked is None
    ctrl.click((10, 0))
    assert ctrl.picked is None and "Click a block" in ctrl.message


def test_enter_without_a_picked_block_asks_for_one():
    ctrl = controller()
    ctrl.key("ENTER")
    assert "Click a block first" in ctrl.message


@pytest.mark.parametrize("key", ["_2", "NUM_2"])
def test_digits_on_either_keyboard_set_the_count(key):
    ctrl = controller()
    ctrl.key(key)
    assert ctrl.count == 2


def test_undo_brings_the_blocks_back_and_the_ai_answers_a_take():
    ctrl = controller(blue="random")
    ctrl.click((0, 0))
    ctrl.key("_3")
    ctrl.key("RETURN")
    assert ctrl.tick()  # blue (random) answers
    assert len(ctrl.engine.history) == 2
    ctrl.key("U")
    ctrl.key("U")
    assert heap_sizes(ctrl.engine.world) == [7, 9, 12]


def test_the_last_block_and_2_takes_the_last_two_as_a_player_means():
    ctrl = controller(heaps=(7,))
    ctrl.click((6, 0))
    ctrl.key("_2")
    assert ctrl.view().marks == {(5, 0), (6, 0)}
    ctrl.key("RETURN")
    assert ctrl.engine.history[-1].command == Take(0, 2, 5)
    assert heap_sizes(ctrl.engine.world) == [5]


def test_a_count_the_code_allows_only_from_an_end_moves_the_run_to_hold_the_click():
    ctrl = controller(heaps=(7,))  # 0.137: 2 only from an end
    ctrl.click((1, 0))
    ctrl.key("_2")
    assert ctrl.view().marks == {(0, 0), (1, 0)}


def test_two_clicks_pick_the_run_between_them():
    ctrl = controller("0.77", heaps=(7,))
    ctrl.click((3, 0))
    ctrl.click((2, 0))
    assert ctrl.view().marks == {(2, 0), (3, 0)}
    ctrl.key("ENTER")
    assert ctrl.engine.history[-1].command == Take(0, 2, 2)
    assert heap_sizes(ctrl.engine.world) == [2, 3]


def test_a_forbidden_run_says_why_before_enter():
    ctrl = controller(heaps=(7,))  # 0.137: 1 only as a whole heap of 1
    ctrl.click((3, 0))
    assert any("does not allow taking 1" in line for line in ctrl.view().info)


def test_the_panel_says_the_rule_and_the_takes_allowed_now():
    ctrl = controller(heaps=(7, 1))
    view = ctrl.view()
    assert view.tooltip[0] == "Rule 0.137: who takes the last block wins"
    assert "take 2: a heap of exactly 2, or from an end of a bigger heap" in view.tooltip
    assert view.info[-2:] == ("heap 0 (7): take 2 or 3", "heap 1 (1): take 1")
    misere = TakeController(load_engine("octal:0.77:3:misere"),
                            make_seats(load_engine("octal:0.77:3:misere"),
                                       {"red": "human", "blue": "human"}, 0), 0, None)
    assert "LOSES" in misere.view().tooltip[0]
