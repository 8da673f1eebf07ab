"""Every property on a skirmish map: what it does to a unit, a building and a cell
(data/properties.yaml), each undone exactly; the nouns of sides and hero classes; a rule a
push forms acting at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from components import Attack, Health, Kind, Moves, Position
from components.resources import RULES_KEY
from game import ROOT
from game.commands import Attack as AttackCmd
from game.commands import Command, EndTurn, Move
from game.data import properties
from game.engine import Engine
from game.levels.loader import load_engine
from systems.rules import Prop, property_bits
from tests.helpers import draw_cells

BASE = ["ROCK IS STOP", "WALL IS STOP", "TEXT IS PUSH", "BLOCK IS PUSH"]


def board(tmp_path: Path, cells: dict[tuple[int, int], str], *rules: str) -> Engine:
    """HQs in the corners, `cells` by palette name, and each rule spelled in words on rows
    5-9 at the left (three words a row)."""
    drawn = {(0, 0): "red hq", (9, 9): "blue hq", (9, 4): "blue bulwark", **cells}
    for row, rule in enumerate(rules):
        for x, word in enumerate(rule.split()):
            drawn[(x, 5 + row)] = f"word {word}"
    path = draw_cells(tmp_path / "t.png", 10, 10, drawn, {"name": "t", "base_rules": BASE})
    engine = load_engine(path)
    for rule in rules:
        assert rule in engine.world.resource(RULES_KEY)
    return engine


def at(engine: Engine, x: int, y: int, kind: str = "hero") -> int:
    return next(e for e in engine.world.at(x, y) if engine.world.get(e, Kind).name == kind)


def kinds(engine: Engine, x: int, y: int) -> list[str]:
    return sorted(engine.world.get(e, Kind).name for e in engine.world.at(x, y))


def hp(engine: Engine, entity: int) -> int:
    world = engine.world
    return world.get(entity, Health).hp if world.alive(entity) else 0


def exact_undo(engine: Engine, commands: list[Command]) -> None:
    """Play `commands` (each legal) then undo them all: the world is as it was."""
    before = engine.world.state_key()
    for command in commands:
        result = engine.submit(command)
        assert result.ok, result
    for _ in commands:
        engine.undo()
    assert engine.world.state_key() == before


def play(engine: Engine, *commands: Command) -> None:
    exact_undo(engine, list(commands))
    for command in commands:
        assert engine.submit(command).ok


# -- the table ---------------------------------------------------------------------------


def test_every_property_is_a_row_with_a_word_and_an_effect_on_units_buildings_and_cells():
    rows = properties()
    assert {"FAST", "SLOW", "STRONG", "FAR", "TOUGH", "HEAL"} <= set(rows)
    for flag in Prop:
        if flag is not Prop.NONE:
            assert property_bits()[str(flag.name)] == int(flag)
    for row in rows.values():
        assert row.unit and row.building and row.cell


def test_docs_rules_md_holds_the_table_the_data_makes():
    from systems.rules import property_table

    assert property_table() in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8"), \
        "docs/rules.md is out of date: python -m systems.rules --table"


# -- numbers: FAST, SLOW, MOVE, STOP; STRONG, FAR, TOUGH; HEAL ------------------------------


@pytest.mark.parametrize(("rule", "expected"), [
    ("RED IS FAST", 5), ("BULWARK IS FAST", 5), ("HERO IS SLOW", 1), ("RED IS MOVE", 4),
    ("RED IS STOP", 0), ("BLUE IS FAST", 3), ("RANGER IS FAST", 3), ("ROCK IS FAST", 3)])
def test_move_points_follow_the_units_side_class_and_kind(tmp_path, rule, expected):
    engine = board(tmp_path, {(3, 1): "red bulwark", (8, 8): "blue bulwark"}, rule)
    hero = at(engine, 3, 1)
    assert engine.world.get(hero, Moves).mp == expected  # bulwark: 3 of its own
    walks = [c for c in engine.legal_actions() if isinstance(c, Move) and c.unit == hero]
    assert bool(walks) == (expected > 0)
    exact_undo(engine, [EndTurn(), EndTurn()])
    play(engine, EndTurn(), EndTurn())
    assert engine.world.get(hero, Moves).mp == expected  # dealt again each turn


def test_strong_adds_damage_tough_takes_it_off_and_far_reaches_farther(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (5, 1): "blue duelist",
                              (6, 3): "blue bulwark"},
                   "RED IS STRONG", "DUELIST IS TOUGH", "BULWARK IS FAR")
    red, duelist = at(engine, 3, 1), at(engine, 5, 1)
    # bulwark range 1 + FAR 1 = 2: the duelist two cells away may be hit
    assert AttackCmd(red, duelist) in engine.legal_actions()
    before = hp(engine, duelist)
    play(engine, AttackCmd(red, duelist))
    assert before - hp(engine, duelist) == 3 + 2 - 2  # damage 3, STRONG +2, TOUGH -2


def test_tough_never_takes_a_hit_below_one(tmp_path):
    engine = board(tmp_path, {(3, 1): "red pathfinder", (4, 1): "blue bulwark"},
                   "BLUE IS TOUGH", "BULWARK IS TOUGH")
    red, blue = at(engine, 3, 1), at(engine, 4, 1)
    before = hp(engine, blue)
    play(engine, AttackCmd(red, blue))
    assert before - hp(engine, blue) == 1  # pathfinder deals 2, armour 2 (TOUGH once)


def test_heal_gives_hit_points_back_at_the_start_of_the_sides_turn(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (8, 8): "blue bulwark",
                              (1, 3): "red tower"}, "RED IS HEAL")
    hero, tower = at(engine, 3, 1), at(engine, 1, 3, "tower")
    engine.world.update(hero, Health, hp=5)
    engine.world.update(tower, Health, hp=19)
    engine.world.forget_history()
    play(engine, EndTurn(), EndTurn())
    assert hp(engine, hero) == 8 and hp(engine, tower) == 20  # +3, up to its maximum


def test_a_strong_far_tower_shoots_harder_and_farther(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (2, 7): "red tower",
                              (6, 7): "blue bulwark"}, "TOWER IS STRONG", "TOWER IS FAR")
    blue = at(engine, 6, 7)
    before = hp(engine, blue)
    play(engine, EndTurn())  # red's tower fires: range 3 + 1 reaches 4 cells, damage 3 + 2
    assert before - hp(engine, blue) == 5


# -- PUSH, SINK, DEFEAT, WEAK, HOT/MELT, OPEN/SHUT on units and buildings -------------------


def test_a_push_unit_is_shoved_by_a_hero_for_one_move_point(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "blue sage"}, "BLUE IS PUSH")
    red, blue = at(engine, 3, 1), at(engine, 4, 1)
    play(engine, Move(red, 4, 1))
    pos = engine.world.get(blue, Position)
    assert (pos.x, pos.y) == (5, 1) and engine.world.get(red, Moves).mp == 2


def test_a_unit_without_push_stops_a_push(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "block", (5, 1): "blue sage"})
    assert Move(at(engine, 3, 1), 4, 1) not in engine.legal_actions()


def test_a_push_tower_pushed_into_sink_drowns_with_it(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "blue tower", (5, 1): "goop",
                              (8, 8): "blue bulwark"}, "TOWER IS PUSH", "GOOP IS SINK")
    tower = at(engine, 4, 1, "tower")
    play(engine, Move(at(engine, 3, 1), 4, 1))
    assert not engine.world.alive(tower) and kinds(engine, 5, 1) == []


def test_a_pushed_unit_dies_on_a_defeat_cell(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "blue sage", (5, 1): "skull",
                              (8, 8): "blue bulwark"}, "BLUE IS PUSH", "SKULL IS DEFEAT")
    sage = at(engine, 4, 1)
    play(engine, Move(at(engine, 3, 1), 4, 1))
    assert not engine.world.alive(sage) and kinds(engine, 5, 1) == ["skull"]


@pytest.mark.parametrize(("rules", "tower_falls", "block_goes"), [
    (("TOWER IS SINK",), True, True),
    (("TOWER IS WEAK",), True, False),
    (("TOWER IS HOT", "BLOCK IS MELT"), False, True),
    (("TOWER IS MELT", "BLOCK IS HOT"), True, False),
    (("TOWER IS SHUT", "BLOCK IS OPEN"), True, True),
    (("BLOCK IS SINK",), True, True),
])
def test_a_block_pushed_into_a_building_meets_it(tmp_path, rules, tower_falls, block_goes):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "block", (5, 1): "blue tower"},
                   *rules)
    tower = at(engine, 5, 1, "tower")
    block = at(engine, 4, 1, "block")
    play(engine, Move(at(engine, 3, 1), 4, 1))
    assert engine.world.alive(tower) != tower_falls
    assert engine.world.alive(block) != block_goes


def test_a_building_that_destroys_nothing_stops_the_push(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "block", (5, 1): "blue tower"},
                   "TOWER IS HOT")
    assert Move(at(engine, 3, 1), 4, 1) not in engine.legal_actions()


def test_a_unit_pushed_into_a_defeat_building_dies_and_the_building_stands(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "blue sage", (5, 1): "red tower",
                              (8, 8): "blue bulwark"}, "BLUE IS PUSH", "TOWER IS DEFEAT")
    sage, tower = at(engine, 4, 1), at(engine, 5, 1, "tower")
    play(engine, Move(at(engine, 3, 1), 4, 1))
    assert not engine.world.alive(sage) and engine.world.alive(tower)


def test_a_weak_hero_breaks_on_a_cell_it_shares_and_the_weak_scenery_under_a_hero_too(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "grass", (3, 2): "flag",
                              (2, 1): "red sage"}, "BULWARK IS WEAK", "FLAG IS WEAK")
    bulwark, sage = at(engine, 3, 1), at(engine, 2, 1)
    play(engine, Move(bulwark, 4, 1))
    assert not engine.world.alive(bulwark)
    play(engine, Move(sage, 3, 2))
    assert engine.world.alive(sage) and kinds(engine, 3, 2) == ["hero"]  # the flag broke


def test_a_melt_hero_dies_on_a_hot_cell(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "lava"}, "LAVA IS HOT",
                   "RED IS MELT")
    hero = at(engine, 3, 1)
    play(engine, Move(hero, 4, 1))
    assert not engine.world.alive(hero)


def test_a_hero_whose_side_is_melt_does_not_walk_through_a_hot_cell(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "lava", (3, 0): "rock",
                              (3, 2): "rock", (2, 1): "rock"}, "LAVA IS HOT", "RED IS MELT")
    hero = at(engine, 3, 1)
    moves = {(c.x, c.y) for c in engine.legal_actions() if isinstance(c, Move) and c.unit == hero}
    assert (4, 1) in moves and (5, 1) not in moves  # in, as its last step, never through


# -- WIN, YOU, STOP on units and buildings ------------------------------------------------


def test_destroying_a_win_building_wins_the_match(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "blue tower",
                              (8, 8): "blue bulwark"}, "TOWER IS WIN")
    engine.world.update(at(engine, 4, 1, "tower"), Health, hp=1)
    engine.world.forget_history()
    play(engine, AttackCmd(at(engine, 3, 1), at(engine, 4, 1, "tower")))
    assert engine.outcome == ("red", "a WIN blue unit or building fell")


def test_destroying_a_win_unit_wins_the_match(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "blue sage",
                              (8, 8): "blue bulwark"}, "SAGE IS WIN")
    play(engine, AttackCmd(at(engine, 3, 1), at(engine, 4, 1)))
    assert engine.outcome is None  # 7 hp, 3 damage: it stands
    engine.world.update(at(engine, 4, 1), Health, hp=1)
    play(engine, EndTurn(), EndTurn(), AttackCmd(at(engine, 3, 1), at(engine, 4, 1)))
    assert engine.outcome == ("red", "a WIN blue unit or building fell")


def test_a_hero_pushed_onto_a_win_cell_wins_for_its_side(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 1): "blue sage", (5, 1): "flag",
                              (8, 8): "blue bulwark"}, "BLUE IS PUSH", "FLAG IS WIN")
    play(engine, Move(at(engine, 3, 1), 4, 1))
    assert engine.outcome is not None and engine.outcome.winner == "blue"


@pytest.mark.parametrize("rule", ["HERO IS YOU", "TOWER IS YOU", "ROCK IS YOU",
                                  "TOWER IS STOP", "TOWER IS FAST", "HQ IS MOVE"])
def test_what_changes_nothing_changes_nothing(tmp_path, rule):
    cells = {(3, 1): "red bulwark", (5, 1): "blue tower", (6, 6): "rock",
             (8, 8): "blue bulwark"}
    plain = board(tmp_path, cells)
    ruled = board(tmp_path, cells, rule)
    assert ruled.legal_actions() == plain.legal_actions()
    for engine in (plain, ruled):
        play(engine, EndTurn(), EndTurn())
    assert [ruled.world.get(e, Health).hp for e, _h in ruled.world.query(Health)] == \
        [plain.world.get(e, Health).hp for e, _h in plain.world.query(Health)]


# -- X IS Y on units; a rule a push forms acts at once ------------------------------------


def test_a_class_turned_into_scenery_dies_and_leaves_it(tmp_path):
    engine = board(tmp_path, {(3, 1): "red bulwark", (4, 3): "red sage",
                              (8, 8): "blue bulwark"}, "SAGE IS ROCK", "ROCK IS RANGER")
    sage = at(engine, 4, 3)
    play(engine, EndTurn())
    assert not engine.world.alive(sage) and kinds(engine, 4, 3) == ["rock"]
    assert engine.world.alive(at(engine, 3, 1))


def _spelled(tmp_path: Path, cells: dict[tuple[int, int], str]) -> Engine:
    """A map with 'X IS' on row 2 at (2, 2), (3, 2), a property word at (4, 3) and a red
    bulwark under it at (4, 4): its step up pushes the word into place."""
    drawn = {(0, 0): "red hq", (9, 9): "blue hq", (3, 2): "word IS", (4, 4): "red bulwark",
             **cells}
    path = draw_cells(tmp_path / "p.png", 10, 10, drawn, {"name": "p", "base_rules": BASE})
    return load_engine(path)


def test_a_rule_a_push_forms_acts_at_once_on_units(tmp_path):
    engine = _spelled(tmp_path, {(2, 2): "word RED", (4, 3): "word STRONG",
                                 (5, 3): "blue sage"})
    red, sage = at(engine, 4, 4), at(engine, 5, 3)
    assert "RED IS STRONG" not in engine.world.resource(RULES_KEY)
    play(engine, Move(red, 4, 3))  # pushes STRONG up to (4, 2): RED IS STRONG
    assert "RED IS STRONG" in engine.world.resource(RULES_KEY)
    before = hp(engine, sage)
    play(engine, AttackCmd(red, sage))  # in the same turn
    assert before - hp(engine, sage) == engine.world.get(red, Attack).damage + 2


def test_a_rule_a_push_forms_acts_at_once_on_cells(tmp_path):
    engine = _spelled(tmp_path, {(2, 2): "word SKULL", (4, 3): "word DEFEAT", (7, 7): "skull",
                                 (6, 7): "blue sage"})
    sage = at(engine, 6, 7)
    engine.world.move(sage, 7, 7)  # onto the skull (nothing yet)
    engine.world.forget_history()
    play(engine, Move(at(engine, 4, 4), 4, 3))  # SKULL IS DEFEAT
    assert not engine.world.alive(sage)
