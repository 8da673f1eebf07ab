"""Skirmish rules on tiny maps: moving, attacking, buildings, minions, winning."""

from __future__ import annotations

import pytest

from components import Health, Kind, Moves, Position, Spawner, Team, Turn
from components.resources import TURN_KEY
from game.commands import Attack, EndTurn, Move
from game.events import Died, Spawned, Won
from tests.helpers import engine_for


def unit_at(engine, x, y):
    (entity,) = [e for e in engine.world.at(x, y) if engine.world.has(e, Health)]
    return entity


def cells_reachable(engine, hero):
    return {(c.x, c.y) for c in engine.legal_actions()
            if isinstance(c, Move) and c.unit == hero}


@pytest.mark.parametrize("rows, start, expected", [
    # an open field: a 3-point hero reaches the diamond of radius 3 (minus its own cell)
    (["Q......", ".......", ".......", "...B...", ".......", ".......", "......q"
      ], (3, 3), 3 * 4 + 2 * 4 + 1 * 4 - 1),  # 24 cells in the diamond, one is the HQ's... see below
])
def test_an_open_field_gives_a_diamond_of_reach(tmp_path, rows, start, expected):
    rows = [r.replace("q", ".") for r in rows[:-1]] + ["b.....q"]
    engine = engine_for(tmp_path, rows)
    hero = unit_at(engine, *start)
    reach = cells_reachable(engine, hero)
    diamond = {(x, y) for x in range(7) for y in range(7)
               if 0 < abs(x - 3) + abs(y - 3) <= 3}
    assert reach == diamond


@pytest.mark.parametrize("blocker, passable", [
    ("#", False),  # rock is STOP
    ("~", False),  # water is STOP
    ("h", False),  # an enemy hero blocks
    ("H", True),   # an ally may be passed through, not stopped on
    ("T", False),  # buildings block
])
def test_what_blocks_a_corridor(tmp_path, blocker, passable):
    rows = [
        "%%%%%%%",
        f"B.{blocker}...",
        "%%%%%%%",
        "Q....hq",
    ]
    engine = engine_for(tmp_path, rows)
    hero = unit_at(engine, 0, 1)
    reach = cells_reachable(engine, hero)
    assert ((3, 1) in reach) == passable
    assert (2, 1) not in reach


def test_a_move_spends_move_points_by_path_length(tmp_path):
    engine = engine_for(tmp_path, ["B.....", "......", "Q...hq"])
    hero = unit_at(engine, 0, 0)
    assert engine.submit(Move(hero, 2, 0)).ok
    assert engine.world.get(hero, Moves).mp == 1
    result = engine.submit(Move(hero, 4, 0))
    assert not result.ok and "out of reach" in result.reason


def test_an_illegal_command_leaves_the_world_exactly_as_it_was(tmp_path):
    engine = engine_for(tmp_path, ["B...b.", "......", "Q....q"])
    before = engine.world.snapshot()
    enemy = unit_at(engine, 4, 0)
    hero = unit_at(engine, 0, 0)
    for command in [Move(hero, 9, 9), Move(enemy, 4, 1), Attack(hero, enemy), Move(999, 0, 0)]:
        result = engine.submit(command)
        assert not result.ok and result.reason
        assert engine.world.snapshot() == before


@pytest.mark.parametrize("between, visible", [
    (".", True), ("~", True), ("#", False), ("T", False), ("h", False), ("H", True),
])
def test_line_of_sight(tmp_path, between, visible):
    rows = ["R" + between + "b...", "......", "Q....q"]
    engine = engine_for(tmp_path, rows)
    ranger, target = unit_at(engine, 0, 0), unit_at(engine, 2, 0)
    can = Attack(ranger, target) in engine.legal_actions()
    assert can == visible


def test_an_attack_deals_damage_once_per_turn_and_kills_at_zero(tmp_path):
    engine = engine_for(tmp_path, ["Ss....", "......", "Q....q"])
    sage, victim = unit_at(engine, 0, 0), unit_at(engine, 1, 0)
    result = engine.submit(Attack(sage, victim))
    assert result.ok
    assert engine.world.get(victim, Health).hp == 7 - 6
    again = engine.submit(Attack(sage, victim))
    assert not again.ok and "already attacked" in again.reason


def test_killing_the_last_enemy_hero_wins(tmp_path):
    engine = engine_for(tmp_path, ["Ss....", "......", "Q....q"],
                        {"units": {"heroes": {"sage": {"hp": 6}}}})
    sage, victim = unit_at(engine, 0, 0), unit_at(engine, 1, 0)
    result = engine.submit(Attack(sage, victim))
    assert any(isinstance(e, Died) and e.entity == victim for e in result.events)
    assert engine.outcome == ("red", "every blue hero fell")
    assert any(isinstance(e, Won) for e in result.events)
    assert engine.legal_actions() == []
    assert not engine.submit(EndTurn()).ok


def test_destroying_the_enemy_hq_wins(tmp_path):
    engine = engine_for(tmp_path, ["S.....", "q.....", "Q....h"],
                        {"units": {"buildings": {"hq": {"hp": 5}}}})
    sage = unit_at(engine, 0, 0)
    hq = unit_at(engine, 0, 1)
    assert engine.submit(Attack(sage, hq)).ok
    assert engine.outcome == ("red", "the blue headquarters was destroyed")


def test_at_the_turn_limit_more_hit_points_wins(tmp_path):
    engine = engine_for(tmp_path, ["B.....", "......", "Q....q", "....s."], {"turn_limit": 1})
    assert engine.submit(EndTurn()).ok
    assert not engine.over
    engine.submit(EndTurn())
    winner, reason = engine.outcome
    assert winner == "red" and reason == "turn limit: red 46 HP, blue 37 HP"


def test_buildings_hit_the_nearest_enemy_in_range_after_their_side_ends_its_turn(tmp_path):
    # Red tower (range 3) sees both blue heroes; the nearer one is hit.
    engine = engine_for(tmp_path, ["T.b.s.", "......", "Q....q", "B....."])
    near, far = unit_at(engine, 2, 0), unit_at(engine, 4, 0)
    engine.submit(EndTurn())
    assert engine.world.get(near, Health).hp == 16 - 3
    assert engine.world.get(far, Health).hp == 7


def test_hq_spawns_minions_every_n_turns_and_minions_march_toward_the_enemy_hq(tmp_path):
    rows = ["Q.........q", "B.........b"]
    engine = engine_for(tmp_path, rows, {"spawn": {"every": 1, "cap": 1}})
    result = engine.submit(EndTurn())
    spawned = [e for e in result.events if isinstance(e, Spawned) and e.side == "red"]
    assert len(spawned) == 1
    minion = spawned[0].entity
    x0 = engine.world.get(minion, Position).x
    engine.submit(EndTurn())  # blue
    engine.submit(EndTurn())  # red again: the cap holds, the minion walks 2 cells
    assert engine.world.get(minion, Position).x == x0 + 2
    assert len([e for e, k in engine.world.query(Kind) if k.name == "minion"
                and engine.world.get(e, Team).side == "red"]) == 1


def test_minions_walk_round_a_wall_along_the_shortest_path(tmp_path):
    rows = [
        "Q.#....",
        "..#.##.",
        "..#.#q.",
        "....#..",
        "B.....b",
    ]
    engine = engine_for(tmp_path, rows, {"spawn": {"every": 1, "cap": 1}})
    engine.submit(EndTurn())
    (minion,) = [e for e, k in engine.world.query(Kind) if k.name == "minion"]
    path = []
    for _ in range(12):
        engine.submit(EndTurn())
        if not engine.world.alive(minion):
            break
        pos = engine.world.get(minion, Position)
        path.append((pos.x, pos.y))
        if engine.over:
            break
    # It never tries the dead end at the top; it goes down and round.
    assert all(cell[1] >= 1 for cell in path[1:])


def test_a_dead_minion_comes_back_at_its_spawn_after_k_turns(tmp_path):
    rows = ["QX.S..", "......", "B....q", ".....h"]
    engine = engine_for(tmp_path, rows, {"spawn": {"every": 1, "cap": 1, "respawn_after": 2}})
    events = engine.submit(EndTurn()).events
    assert [(e.x, e.y) for e in events if isinstance(e, Spawned)] == [(1, 0)]  # the marked cell
    (minion,) = [e for e, k in engine.world.query(Kind) if k.name == "minion"]
    engine.world.update(minion, Health, hp=0)  # as if killed
    events = engine.submit(EndTurn()).events  # blue's turn ends; the death is seen
    assert any(isinstance(e, Died) for e in events)
    hq = unit_at(engine, 0, 0)
    assert engine.world.get(hq, Spawner).respawns == (2,)
    engine.submit(EndTurn())  # red: 2 -> 1
    assert engine.world.get(hq, Spawner).respawns == (1,)
    engine.submit(EndTurn())
    events = engine.submit(EndTurn()).events  # red: 1 -> 0, back at its spawn
    assert any(isinstance(e, Spawned) and (e.x, e.y) == (1, 0) for e in events)


def test_ending_a_turn_restores_the_next_sides_points_and_counts_rounds(tmp_path):
    engine = engine_for(tmp_path, ["B.....", "......", "Q....q", "....b."])
    hero = unit_at(engine, 0, 0)
    engine.submit(Move(hero, 1, 0))
    engine.submit(EndTurn())
    turn = engine.world.get(engine.world.resource(TURN_KEY), Turn)
    assert (turn.side, turn.round) == ("blue", 1)
    engine.submit(EndTurn())
    turn = engine.world.get(engine.world.resource(TURN_KEY), Turn)
    assert (turn.side, turn.round) == ("red", 2)
    assert engine.world.get(hero, Moves).mp == 3


def classes_by_cell(engine):
    from components import UnitClass
    return {(pos.x, pos.y): cls.name
            for _e, (pos, cls) in engine.world.query(Position, UnitClass)}


def test_blue_reads_its_hero_list_from_its_own_corner_so_a_turned_map_mirrors_the_classes(
        tmp_path):
    rows = [
        "Q.....",
        "HH....",
        "H.....",
        ".....h",
        "....hh",
        ".....q",
    ]
    heroes = {"red": ["bulwark", "ranger", "sage"], "blue": ["bulwark", "ranger", "sage"]}
    classes = classes_by_cell(engine_for(tmp_path, rows, {"heroes": heroes}))
    assert {cell: classes[cell] for cell in [(0, 1), (1, 1), (0, 2)]} == {
        (0, 1): "bulwark", (1, 1): "ranger", (0, 2): "sage"}
    # each blue hero has the class of the red hero on the cell turned half round (5-x, 5-y)
    for (x, y) in [(0, 1), (1, 1), (0, 2)]:
        assert classes[(5 - x, 5 - y)] == classes[(x, y)]
