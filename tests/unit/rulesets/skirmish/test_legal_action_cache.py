"""The skirmish ruleset caches occupancy and reach, keyed by World.version(), for the AIs'
searches: through random games, their undo, and inside a search tree, the cached legal
actions always equal ones computed afresh, and undo still restores the world exactly.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from game import MAPS
from game.engine import Engine
from game.levels.loader import load_engine
from game.world import World
from systems.board import occupancy
from systems.movement import reachable
from systems.units_rules import push_moves
from tests.helpers import undo_all

MAP_PATHS = sorted(Path(MAPS).glob("*.png"))


def fresh_legal_actions(engine: Engine) -> list:
    """legal_actions computed without any cache, the way the ruleset did before caching."""
    from components import Actions, Moves, Position
    from game.commands import Attack, EndTurn, Move
    from systems.combat import targets

    rules = engine.ruleset
    world = engine.world
    side = engine.side
    occ = occupancy(world, rules.cfg.opaque)
    actions: list = []
    for hero in rules.heroes(world, side):
        if world.get(hero, Actions).ap > 0:
            actions += [Attack(hero, t) for t in targets(world, occ, hero)]
        pos = world.get(hero, Position)
        cells = reachable(occ, (pos.x, pos.y), world.get(hero, Moves).mp, side)
        actions += [Move(hero, x, y) for (x, y) in sorted(cells, key=lambda c: (c[1], c[0]))]
        actions += [Move(hero, x, y) for (x, y) in push_moves(world, hero)]
    actions.append(EndTurn())
    return actions


@pytest.mark.parametrize("map_path", MAP_PATHS, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_game_undone_in_full_restores_the_starting_world(map_path: Path,
                                                                  seed: int) -> None:
    engine = load_engine(map_path, seed=seed)
    start = engine.world.snapshot()
    rng = random.Random(seed)
    for _ in range(300):
        if engine.over:
            break
        actions = engine.legal_actions()
        assert actions == fresh_legal_actions(engine)
        engine.submit(rng.choice(actions))
    undo_all(engine)
    assert engine.world.snapshot() == start


@pytest.mark.parametrize("map_path", MAP_PATHS, ids=lambda p: p.stem)
def test_cached_legal_actions_match_fresh_ones_inside_a_search_tree(map_path: Path) -> None:
    engine = load_engine(map_path, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        engine.submit(rng.choice(engine.legal_actions()))
    before = engine.world.snapshot()
    for command in engine.legal_actions()[:15]:
        engine.apply(command)
        if not engine.over:
            assert engine.legal_actions() == fresh_legal_actions(engine)
            for reply in engine.legal_actions()[:5]:
                engine.apply(reply)
                engine.retract()
        engine.retract()
        assert engine.legal_actions() == fresh_legal_actions(engine)
    assert engine.world.snapshot() == before


def _all_stand_afresh(world: World, sides: tuple[str, ...]) -> bool:
    from components import Health, Kind, Team

    standing = {(team.side, kind.name) for _e, (kind, team, health)
                in world.query(Kind, Team, Health) if health.hp > 0}
    return all((side, name) in standing for side in sides for name in ("hq", "hero"))


@pytest.mark.parametrize("map_path", MAP_PATHS, ids=lambda p: p.stem)
def test_what_the_end_of_turn_and_the_walks_keep_equals_what_is_found_afresh(
        map_path: Path) -> None:
    """The occupancy an end of turn hands on and the walked states build, the cells of what
    may be pushed, the first `_all_stand` witnesses and a walk's cost read from the kept
    field are what a fresh look at the world gives, through random games with undo."""
    from components import Position
    from game.data import SIDES
    from systems import win

    engine = load_engine(map_path, seed=3)
    rules: Any = engine.ruleset
    world = engine.world
    rng = random.Random(3)
    for _ in range(400):
        if engine.over:
            engine.retract_to(0)
        legal = engine.legal_actions()
        kept = rules.occupancy(world)
        fresh = occupancy(world, rules.cfg.opaque)
        assert (kept.width, kept.height, kept.units) == (fresh.width, fresh.height, fresh.units)
        assert (set(kept.solid), set(kept.opaque), set(kept.deadly)) == \
            (set(fresh.solid), set(fresh.opaque), set(fresh.deadly))
        if kept.pushable is not None:  # a push is offered only beside a pushable cell
            for hero in rules.heroes(world, engine.side):
                if push_moves(world, hero):
                    pos = world.get(hero, Position)
                    assert any((pos.x + dx, pos.y + dy) in kept.pushable
                               for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))
        assert win._all_stand(world, SIDES) == _all_stand_afresh(world, SIDES)
        engine.apply(rng.choice(legal))
        if rng.random() < 0.1:
            engine.retract()
