"""Bench group "cluster": games per second of a short tournament, locally and on a local Ray.

The same 8 random-vs-random games on maps/outpost.png (short games, so what a backend costs
per game shows) run in this process (serial), on the local backend with 2 worker processes
(a fresh pool per tournament, as the command does) and on a local Ray with 2 CPUs (warm
workers); the difference per game between Ray and local is the Ray overhead. Starting Ray is timed apart: a cluster
pays it once, not per tournament.
"""

from __future__ import annotations

import logging
import statistics
import time
from typing import Any

from game import MAPS
from game.tournament.backends import LocalBackend, RayBackend, run_games
from game.tournament.games import swapped_pairs
from systems.ai import Budget

GAMES = 8
WORKERS = 2


def _rate(backend_of: Any, repeat: int) -> float:
    specs = swapped_pairs(str(MAPS / "outpost.png"), "random", "random", GAMES, 0, Budget())
    times = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        run_games(specs, backend=backend_of())
        times.append(time.perf_counter() - start)
    return GAMES / statistics.median(times)


def cluster(repeat: int = 5, **_options: Any) -> dict[str, float]:
    figures = {"cluster.serial_games_per_s": _rate(lambda: LocalBackend(1), repeat),
               "cluster.local_games_per_s": _rate(lambda: LocalBackend(WORKERS), repeat)}
    try:
        import ray
    except ImportError:
        return figures  # the ray figures need the cluster extra
    start = time.perf_counter()
    ray.init(address="local", num_cpus=WORKERS, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    try:
        figures["cluster.ray_start_s"] = time.perf_counter() - start
        run_games(swapped_pairs(str(MAPS / "outpost.png"), "random", "random", 2, 0,
                                Budget()), backend=RayBackend())  # warm the workers once
        figures["cluster.ray_games_per_s"] = _rate(RayBackend, repeat)
    finally:
        ray.shutdown()
    # negative when Ray's warm workers cost less than starting a process pool per tournament
    figures["cluster.ray_overhead_ms_per_game"] = 1000 * (
        1 / figures["cluster.ray_games_per_s"] - 1 / figures["cluster.local_games_per_s"])
    return figures
