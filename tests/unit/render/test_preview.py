"""Hover previews: the walk a move takes and the MP it leaves, what an attack does, tooltips.
Every preview is read off the command applied and retracted, so the world is left as it was."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from components import Health, Moves, Position, Word
from game.commands import Move
from game.levels.loader import load_engine
from game.render.controllers.match import Controller
from game.render.controllers.preview import preview, walk
from game.session.match import make_seats
from systems.board import manhattan
from tests.helpers import draw_map


def controller_for(tmp_path: Path, rows: list[str]) -> Controller:
    engine = load_engine(draw_map(tmp_path / "tiny.png", rows))
    seats = make_seats(engine, {"red": "human", "blue": "human"}, 0)
    return Controller(engine, seats, 0, tmp_path / "save.json")


def test_hovering_a_reachable_cell_shows_the_walk_round_a_rock_and_the_mp_left(tmp_path):
    ctrl = controller_for(tmp_path, ["D#....", "......", "Q...dq"])
    ctrl.click((0, 0))
    before = ctrl.engine.world.snapshot()
    ctrl.hover((2, 0))
    view = ctrl.view()
    assert view.path == ((0, 1), (1, 1), (2, 1), (2, 0))  # not through the rock at (1, 0)
    assert view.tooltip[0] == "move to 2,0: 4 steps, 0 MP left"
    ctrl.hover((1, 1))
    assert ctrl.view().path == ((0, 1), (1, 1))
    assert ctrl.view().tooltip[0] == "move to 1,1: 2 steps, 2 MP left"
    assert ctrl.engine.world.snapshot() == before and not ctrl.engine.history


def test_hovering_an_enemy_in_range_shows_the_damage_and_whether_it_dies(tmp_path):
    ctrl = controller_for(tmp_path, ["Dd....", "......", "Q....q"])
    world = ctrl.engine.world
    blue = world.at(1, 0)[0]
    ctrl.click((0, 0))
    ctrl.hover((1, 0))
    assert ctrl.view().tooltip[0] == f"hit duelist #{blue}: 5 damage, hp 11 -> 6"
    world.update(blue, Health, hp=4)
    ctrl.hover(None)
    ctrl.hover((1, 0))
    before = world.snapshot()
    assert ctrl.view().tooltip[0] == f"hit duelist #{blue}: 4 damage, kills it"
    assert world.snapshot() == before and world.alive(blue)


def test_hovering_any_unit_shows_its_stats_and_off_the_board_shows_nothing(tmp_path):
    ctrl = controller_for(tmp_path, ["D.....", "......", "Q...dq"])
    blue = ctrl.engine.world.at(4, 2)[0]
    ctrl.hover((4, 2))
    assert ctrl.view().tooltip == (f"duelist #{blue} (blue): hp 11/11, damage 5, range 1, "
                                   "MP 4/4",)
    assert ctrl.view().path == ()
    ctrl.hover(None)
    assert ctrl.view().tooltip == ()


def test_hovering_a_word_names_the_rule_it_belongs_to():
    engine = load_engine("maps/crossing.png")
    words = {engine.world.get(e, Word).text.upper(): engine.world.get(e, Position)
             for e, _ in engine.world.query(Word)}
    water = words["WATER"]
    lines = preview(engine, [], None, (water.x, water.y)).lines
    assert lines == ("word WATER: WATER IS STOP",)


def test_the_path_shown_for_a_push_is_its_one_step_as_the_move_costs(tmp_path):
    # The block at (1, 0) is PUSH: stepping onto it is a legal move that costs one point, not
    # a cell movement's reach can stand on. The walk used to be its own breadth-first search
    # and showed no path and "0 steps" here.
    ctrl = controller_for(tmp_path, ["D=....", "......", "Q...dq"])
    hero = ctrl.engine.world.at(0, 0)[0]
    assert Move(hero, 1, 0) in ctrl.engine.legal_actions()
    ctrl.click((0, 0))
    ctrl.hover((1, 0))
    assert ctrl.view().path == ((1, 0),)
    assert ctrl.view().tooltip[0] == "move to 1,0: 1 step, 3 MP left"


@pytest.mark.parametrize("map_name", ["duel", "crossing", "frontier"])
def test_every_legal_move_shows_a_walk_of_single_steps_as_long_as_the_move_costs(map_name):
    engine = load_engine(f"maps/{map_name}.png", seed=2)
    rng = random.Random(2)
    checked = 0
    for _ in range(40):
        if engine.over:
            break
        for move in [c for c in engine.legal_actions() if isinstance(c, Move)]:
            pos, mp = engine.world.get(move.unit, Position), engine.world.get(move.unit, Moves).mp
            cells = walk(engine, move.unit, (move.x, move.y))
            engine.apply(move)
            cost = mp - engine.world.get(move.unit, Moves).mp
            engine.retract()
            assert len(cells) == cost and cells[-1] == (move.x, move.y), move
            steps = zip(((pos.x, pos.y), *cells), cells, strict=False)
            assert all(manhattan(a, b) == 1 for a, b in steps), (move, cells)
            checked += 1
        engine.apply(rng.choice(engine.legal_actions()))
    assert checked > 100
