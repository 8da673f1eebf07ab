"""Bench groups of the engine itself: skirmish match speed, apply+undo, legal actions."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from game.bench import median_time
from game.engine import Engine
from game.levels.loader import load_engine
from game.levels.maps import DEFAULT_MAP
from game.session.match import run_match


def mid_game(seed: int = 1, commands: int = 300) -> Engine:
    """The default map after `commands` seeded random commands: units spread, minions out."""
    engine = load_engine(DEFAULT_MAP, seed=seed)
    rng = random.Random(seed)
    for _ in range(commands):
        actions = engine.legal_actions()
        if engine.over:
            break
        engine.submit(actions[rng.randrange(len(actions))])
    return engine


def skirmish(repeat: int = 5, **_options: Any) -> dict[str, float]:
    seeds = iter(range(1000))
    match_s = median_time(
        lambda: run_match(DEFAULT_MAP, {"red": "random", "blue": "random"}, next(seeds)), repeat)

    engine = mid_game()
    actions = engine.legal_actions()
    per_op = []
    for _ in range(repeat):
        start = time.perf_counter()
        for command in actions:
            engine.apply(command)
            engine.retract()
        per_op.append((time.perf_counter() - start) / len(actions))
    legal_s = median_time(engine.legal_actions, repeat * 20)
    return {
        "skirmish.match_s": match_s,
        "skirmish.apply_undo_us": statistics.median(per_op) * 1e6,
        "skirmish.legal_actions_us": legal_s * 1e6,
    }
