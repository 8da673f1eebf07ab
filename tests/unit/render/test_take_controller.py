"""Octal games in the window's controller: click a block, a digit, Enter takes (no display)."""

from __future__ import annotations

import pytest

from game.commands import Take
from game.levels.loader import load_engine
from game.render.controllers.take import TakeController
from game.rulesets.octal.ruleset import heap_sizes, spec_map
from game.session.match import make_seats


def controller(code: str = "0.137", heaps: tuple[int, ...] = (7, 9, 12),
               blue: str = "human") -> TakeController:
    engine = load_engine(str(spec_map(code, list(heaps)).path))
    return TakeController(engine, make_seats(engine, {"red": "human", "blue": blue}, 0), 0, None)


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
