"""Bench groups for the puzzle and descent rulesets (`rulefront bench puzzle descent`)."""

from __future__ import annotations

import statistics
from typing import Any

from game import MAPS, ROOT
from game.bench import median_time
from game.levels.loader import load_engine
from game.rulesets.puzzle.sets import set_levels
from systems.ai.keke_set import solve_levels
from systems.ai.solver import search, solve

KEKE_SET = ROOT.parent / "shared" / "benchmarks" / "keke" / "full_biy_LEVELS.json"
MID_LEVEL = "24"  # 10x8 with 22 things and 15 words; breadth-first does not finish in 1 s


def puzzle(repeat: int = 5, keke: bool = False, **_: Any) -> dict[str, float]:
    """puzzle.states_per_s: states the breadth-first solver generates per second (apply, hash,
    verdict, retract) on a mid-size Keke level; with --keke, keke.solved_1w and keke.solved_2w
    (the whole set at 10 s per level with one worker, then two: about 15 minutes)."""
    figures: dict[str, float] = {}
    if KEKE_SET.exists():
        engine = load_engine(KEKE_SET, level=MID_LEVEL)
    else:  # the benchmark lives outside the repository; fall back to a shipped level
        engine = load_engine(MAPS / "puzzles" / "keke-walks.keke")
    rules: Any = engine.ruleset
    rates = []
    for _run in range(repeat):
        found = search(engine, rules.state_key, rules.verdict, rules.actions, seconds=1.0)
        rates.append(found.generated / max(found.seconds, 1e-9))
    figures["puzzle.states_per_s"] = statistics.median(rates)
    if keke and KEKE_SET.exists():
        for workers in (1, 2):
            rows = solve_levels(set_levels(KEKE_SET), 10.0, "auto", workers)
            figures[f"keke.solved_{workers}w"] = float(sum(row["solved"] for row in rows))
    return figures


def descent(repeat: int = 5, **_: Any) -> dict[str, float]:
    """descent.solve_s: breadth-first solve of an 8x8 shipped level (maps/descent/level-09)."""
    path = MAPS / "descent" / "level-09.txt"

    def run() -> None:
        assert solve(load_engine(path), None, "bfs").solved

    return {"descent.solve_s": median_time(run, repeat)}
