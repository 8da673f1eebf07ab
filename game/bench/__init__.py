"""`rulefront bench`: medians of the figures each capability names.

Each group is a function returning {figure name: median}; groups live beside the code they
measure and are listed here by import path, so a group costs nothing until it is asked for.
"""

from __future__ import annotations

import importlib
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

GROUPS: dict[str, str] = {
    "skirmish": "game.bench.skirmish:skirmish",
    "puzzle": "game.bench.levels:puzzle",
    "descent": "game.bench.levels:descent",
    "render": "game.bench.render:render",
    "octal": "game.bench.octal:octal",
    "ai": "game.bench.ai:ai",
    "cluster": "game.bench.cluster:cluster",
    "cli": "game.bench.cli:cli",
    "openspiel": "game.bench.openspiel:openspiel",
    "envs": "game.envs.bench:envs",
    "text": "game.text.bench:text",
    "server": "game.bench.server:server",
}


def median_time(fn: Callable[[], Any], repeat: int = 5) -> float:
    """Median wall time of `fn()` in seconds over `repeat` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def process_wall_s(argv: list[str], repeat: int = 5) -> float:
    """Median wall time in seconds of `python ARGV...` run as a new process, start-up included.

    The code this module belongs to goes first on the child's path, so the bench measures
    itself and not, say, another checkout's editable install.
    """
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([root, *filter(None, [os.environ.get("PYTHONPATH")])])}

    def once() -> None:
        subprocess.run([sys.executable, *argv], env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    return median_time(once, repeat)


def run_groups(names: list[str], options: dict[str, Any] | None = None) -> dict[str, float]:
    figures: dict[str, float] = {}
    for name in names:
        module_name, func_name = GROUPS[name].split(":")
        func = getattr(importlib.import_module(module_name), func_name)
        figures.update(func(**(options or {})))
    return figures
