"""Bench groups for the puzzle and descent rulesets (`rulefront bench puzzle descent`)."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from game import MAPS
from game.bench import median_time
from game.levels import load_level
from systems.ai.solver import search, solve

KEKE_SET = Path("/work/shared/benchmarks/keke/full_biy_LEVELS.json")
MID_LEVEL = "24"  # 10x8 with 22 things and 15 words; breadth-first does not finish in 1 s


def puzzle(repeat: int = 5, keke: bool = False, **_: Any) -> dict[str, float]:
    """puzzle.states_per_s: states the breadth-first solver generates per second (apply, hash,
    verdict, retract) on a mid-size Keke level; keke.solved with --keke (the whole set at
    10 s per level: about half an hour)."""
    figures: dict[str, float] = {}
    if KEKE_SET.exists():
        engine = load_level(KEKE_SET, MID_LEVEL)
    else:  # the benchmark lives outside the repository; fall back to a shipped level
        engine = load_level(MAPS / "puzzles" / "keke-walks.keke")
    rules: Any = engine.ruleset
    rates = []
    for _run in range(repeat):
        found = search(engine, rules.state_key, rules.verdict, rules.actions, seconds=1.0)
        rates.append(found.generated / max(found.seconds, 1e-9))
    figures["puzzle.states_per_s"] = statistics.median(rates)
    if keke and KEKE_SET.exists():
        from game.cli.keke_run import replay_wins
        from game.engine import Engine
        from game.keke import level_map, read_set
        from systems.ai.solver import moves_text

        solved = 0
        for level in read_set(KEKE_SET):
            found = solve(Engine.from_game_map(level_map(KEKE_SET, level)), 10.0)
            solved += found.solved and replay_wins(KEKE_SET, level,
                                                   moves_text(found.commands))[0]
        figures["keke.solved"] = float(solved)
    return figures


def descent(repeat: int = 5, **_: Any) -> dict[str, float]:
    """descent.solve_s: breadth-first solve of an 8x8 shipped level (maps/descent/level-09)."""
    path = MAPS / "descent" / "level-09.txt"

    def run() -> None:
        assert solve(load_level(path), None, "bfs").solved

    return {"descent.solve_s": median_time(run, repeat)}
