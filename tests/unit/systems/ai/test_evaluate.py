"""Position evaluation: the incremental state hash never drifts from a full rehash."""

from __future__ import annotations

import random

from game.levels.loader import load_engine
from systems.ai.evaluate import StateHash


def test_the_incremental_hash_equals_a_full_rehash_through_a_game_and_its_undo() -> None:
    engine = load_engine("maps/duel.png", seed=4)
    hasher = StateHash(engine.world)
    value, stack = hasher.value, []
    rng = random.Random(4)
    for _ in range(250):
        if engine.over:
            break
        mark = engine.world.mark()
        engine.apply(rng.choice(engine.legal_actions()))
        stack.append(value)
        value = hasher.after(value, mark)
        assert value == hasher.full()
    while stack:
        engine.retract()
        value = stack.pop()
        assert value == hasher.full()
