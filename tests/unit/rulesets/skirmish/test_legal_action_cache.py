"""The skirmish ruleset caches occupancy and reach, keyed by World.version(), for the AIs'
searches: through random games, their undo, and inside a search tree, the cached legal
actions always equal ones computed afresh, and undo still restores the world exactly.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game import MAPS
from game.engine import Engine
from game.levels.loader import load_engine
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
