"""What a skirmish step keeps or is told to save work (the minions' distance field kept by the
identity of its solid cells, reach told the enemies' cells, query lists cut without a
destroyed entity) gives the answer found afresh, through random play and undo."""

from __future__ import annotations

import random
from typing import Any

import esper
import pytest

from components import Health, Kind, Position, Team
from game.levels.loader import load_engine
from game.world import World
from systems import minions
from systems.board import distance_field
from systems.movement import reach

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
def test_the_minions_field_kept_by_its_solid_cells_is_the_one_found_afresh(source: str) -> None:
    engine = load_engine(source, seed=6)
    rng = random.Random(6)
    goals = [(0, 0), (3, 2)]
    for _ in range(150):
        if engine.over:
            break
        occ = engine.ruleset.occupancy(engine.world)  # type: ignore[attr-defined]
        assert minions._field_to(occ, goals) == distance_field(occ, goals)
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
    found = esper.get_component(types[0]) if len(types) == 1 else esper.get_components(*types)
    return sorted(found, key=lambda pair: pair[0])
