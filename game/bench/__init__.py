"""`rulefront bench`: medians of the figures each capability names.

Each group is a function returning {figure name: median}; groups live beside the code they
measure and are listed here by import path, so a group costs nothing until it is asked for.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable
from typing import Any

GROUPS: dict[str, str] = {
    "skirmish": "game.bench.skirmish:skirmish",
    "puzzle": "game.bench.levels:puzzle",
    "descent": "game.bench.levels:descent",
    "render": "game.bench.render:render",
    "octal": "game.bench.octal:octal",
    "ai": "game.bench.ai:ai",
    "cluster": "game.bench.cluster:cluster",
    "text": "game.text.bench:text",
}


def median_time(fn: Callable[[], Any], repeat: int = 5) -> float:
    """Median wall time of `fn()` in seconds over `repeat` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_groups(names: list[str], options: dict[str, Any] | None = None) -> dict[str, float]:
    figures: dict[str, float] = {}
    for name in names:
        module_name, func_name = GROUPS[name].split(":")
        func = getattr(importlib.import_module(module_name), func_name)
        figures.update(func(**(options or {})))
    return figures
