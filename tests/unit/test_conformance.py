"""One conformance test for every ruleset: seeded random games, then undo all the way back.

Each ruleset contributes sample levels to LEVELS; every command is undone and the world must
equal the snapshot taken before it, to the last field, cell and RNG state.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from game import MAPS
from game.engine import Engine
from game.levels.loader import load_engine
from game.levels.maps import shipped_maps

LEVELS: list[tuple[str, Callable[[], Engine]]] = [
    (path.name, lambda path=path: load_engine(path, seed=5))
    for path in [*shipped_maps(), *sorted(MAPS.glob("octal/*.png"))]
] + [
    ("octal misere", lambda: load_engine("octal:0.137:9,12,5:misere")),
]


@pytest.mark.parametrize("name, load", LEVELS, ids=[name for name, _ in LEVELS])
def test_random_play_undone_in_full_restores_every_intermediate_world(name, load):
    engine = load()
    rng = random.Random(name)
    snapshots = []
    for _ in range(400):
        actions = engine.legal_actions()
        if not actions:
            break
        snapshots.append(engine.world.snapshot())
        command = actions[rng.randrange(len(actions))]
        assert engine.why_illegal(command) is None
        assert engine.submit(command).ok
    while snapshots:
        engine.undo()
        assert engine.world.snapshot() == snapshots.pop()
    assert not engine.history
