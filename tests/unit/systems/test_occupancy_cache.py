"""The occupancy cache reuses the scenery while the World's journal shows it untouched, and
always answers what a full `occupancy()` pass would."""

from __future__ import annotations

import random

import pytest

from components import Kind
from game.levels.loader import load_engine
from systems.board import occupancy
from systems.occupancy_cache import OccupancyCache

OPAQUE = ("rock", "wall")


def same(a, b) -> bool:
    return (a.width, a.height, set(a.solid), a.units, set(a.opaque), set(a.deadly)) == \
        (b.width, b.height, set(b.solid), b.units, set(b.opaque), set(b.deadly))


@pytest.mark.parametrize("map_name", ["duel", "crossing", "frontier"])
def test_the_cache_equals_a_full_pass_through_play_and_undo(map_name):
    engine = load_engine(f"maps/{map_name}.png", seed=3)
    world, rng, cache = engine.world, random.Random(3), OccupancyCache(OPAQUE)
    rebuilds: list[int] = []
    rebuild = cache._rebuild
    cache._rebuild = lambda w: (rebuilds.append(1), rebuild(w))[1]
    steps = 0
    for _ in range(150):
        if engine.over:
            break
        if engine.history and rng.random() < 0.3:
            engine.retract()
        else:
            engine.apply(rng.choice(engine.legal_actions()))
        assert same(cache.get(world), occupancy(world, OPAQUE))
        steps += 1
    assert len(rebuilds) < steps / 3  # the scenery was reused, not recomputed every time


def test_a_changed_kind_rebuilds_the_static_part():
    engine = load_engine("maps/duel.png")
    world, cache = engine.world, OccupancyCache(OPAQUE)
    cache.get(world)
    rock = next(e for e, kind in world.query(Kind) if kind.name == "rock")
    world.update(rock, Kind, name="floor")
    assert same(cache.get(world), occupancy(world, OPAQUE))
