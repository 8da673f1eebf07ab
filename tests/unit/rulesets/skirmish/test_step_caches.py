"""What a skirmish step keeps or is told to save work (the minions' way, a distance field with
each cell's steps down it, kept by the identity of its solid cells; reach told the enemies'
cells; query lists cut without a destroyed entity) gives the answer found afresh, through random
play and undo."""

from __future__ import annotations

import random
from typing import Any

import esper
import pytest

from components import Attack, Health, Kind, Position, Team
from game.levels.loader import load_engine
from game.world import World
from systems import minions
from systems.board import DIRS, distance_field, in_sight
from systems.combat import foes_of, nearest_target
from systems.movement import reach
from systems.stats import reach as reach_of

MAPS = ["duel", "outpost", "crossing", "frontier", "mending", "tailwind"]


@pytest.mark.parametrize("source", MAPS)
def test_reach_told_the_enemies_cells_finds_what_it_finds_alone(source: str) -> None:
    engine = load_engine(source, seed=5)
    rng = random.Random(5)
    for _ in range(150):
        if engine.over:
            break
        occ = engine.ruleset.occupancy(engine.world)  # type: ignore[attr-defined]
        for cell, side in occ.units.items():
            enemies = frozenset(c for c, owner in occ.units.items() if owner != side)
            alone = reach(occ, cell, 3, side)
            told = reach(occ, cell, 3, side, enemies=enemies)
            assert list(told.items()) == list(alone.items())
        engine.apply(rng.choice(engine.legal_actions()))


@pytest.mark.parametrize("source", MAPS)
def test_the_minions_way_kept_by_its_solid_cells_is_the_one_found_afresh(source: str) -> None:
    engine = load_engine(source, seed=6)
    rng = random.Random(6)
    goals = [(0, 0), (3, 2)]
    for _ in range(150):
        if engine.over:
            break
        occ = engine.ruleset.occupancy(engine.world)  # type: ignore[attr-defined]
        field, downhill = minions._way_to(occ, goals)
        assert field == distance_field(occ, goals)
        for (x, y), d in field.items():  # the march's first free step down is its old scan's
            nearer = [cell for cell in [(x + dx, y + dy) for dx, dy in DIRS]
                      if field.get(cell, d) < d]
            assert downhill[(x, y)] == tuple(nearer)
            assert all(field[cell] == d - 1 for cell in nearer)
        engine.apply(rng.choice(engine.legal_actions()))
        if rng.random() < 0.2:
            engine.retract()


@pytest.mark.parametrize("source", MAPS)
def test_query_lists_kept_through_deaths_and_undo_are_the_ones_esper_gives(source: str) -> None:
    engine = load_engine(source, seed=7)
    world = engine.world
    rng = random.Random(7)
    types = [(Position, Team, Health), (Health,), (Kind, Team), (Position, Kind)]
    deaths = 0
    for _ in range(400):
        if engine.over:
            break
        for wanted in types:
            world.query(*wanted)  # kept, to be cut or brought back
        before = len(world.entities())
        engine.apply(rng.choice(engine.legal_actions()))
        deaths += len(world.entities()) < before
        for wanted in types:
            assert world.query(*wanted) == _from_esper(world, wanted)
        if rng.random() < 0.1:
            engine.retract()
            for wanted in types:
                assert world.query(*wanted) == _from_esper(world, wanted)
    assert deaths or source in ("mending", "tailwind", "crossing")


def _from_esper(world: World, types: tuple[type, ...]) -> list[Any]:
    """The query asked of esper afresh, in id order."""
    esper.switch_world(world.name)
    found: Any = esper.get_component(types[0]) if len(types) == 1 else esper.get_components(*types)
    return sorted(found, key=lambda pair: pair[0])


@pytest.mark.parametrize("source", MAPS)
def test_nearest_target_through_foes_by_column_is_the_one_a_scan_of_all_finds(
        source: str) -> None:
    engine = load_engine(source, seed=8)
    world = engine.world
    rng = random.Random(8)
    asked = 0
    for _ in range(200):
        if engine.over:
            break
        occ = engine.ruleset.occupancy(world)  # type: ignore[attr-defined]
        for shooter, (team, _attack, _pos) in world.query(Team, Attack, Position):
            for sight, units_only in ((occ, False), (None, True)):
                found = nearest_target(world, sight, shooter, units_only,
                                       foes_of(world, team.side))
                assert found == _nearest_by_scan(world, sight, shooter, units_only)
                asked += found is not None
        engine.apply(rng.choice(engine.legal_actions()))
    assert asked or source not in ("duel", "outpost")  # (fights soon on these two)


def _nearest_by_scan(world: World, occ: Any, shooter: int, units_only: bool) -> int | None:
    """nearest_target as its docstring says it: the least (distance, hp, id) in range (and
    in sight, given `occ`) of every living enemy."""
    pos, side = world.get(shooter, Position), world.get(shooter, Team).side
    reach = reach_of(world, shooter)
    keys = []
    for entity, (tpos, team, health, kind) in world.query(Position, Team, Health, Kind):
        dist = abs(tpos.x - pos.x) + abs(tpos.y - pos.y)
        if team.side == side or health.hp <= 0 or dist > reach:
            continue
        if units_only and kind.name not in ("hero", "minion"):
            continue
        if occ is not None and not in_sight(occ, side, (pos.x, pos.y), (tpos.x, tpos.y)):
            continue
        keys.append((dist, health.hp, entity))
    return min(keys)[2] if keys else None
