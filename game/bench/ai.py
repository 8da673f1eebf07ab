"""`rulefront bench ai`: minimax nodes per second and heuristic milliseconds per action.

Both are measured on one fixed mid-game position of the default map: heuristic against
heuristic from seed 0 until blue's first action of round 8, when the heroes are in contact.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from game.engine import Engine
from game.levels.loader import load_engine
from game.levels.maps import DEFAULT_MAP
from game.session.match import current_round, make_seats
from systems.ai import Budget
from systems.ai.heuristic import HeuristicAI
from systems.ai.minimax import MinimaxAI

BENCH_ROUND = 8
BENCH_NODES = 20_000


def midgame(seed: int = 0, round_: int = BENCH_ROUND) -> Engine:
    """The bench position: a deterministic heuristic-vs-heuristic game stopped mid-way."""
    engine = load_engine(DEFAULT_MAP, seed=seed)
    seats = make_seats(engine, {"red": "heuristic", "blue": "heuristic"}, seed)
    while not engine.over:
        if current_round(engine) >= round_ and engine.side == "blue":
            break
        seat = seats[engine.side]
        assert seat.ai is not None
        engine.submit(seat.ai.choose(engine, seat.rng, Budget()))
    return engine


def ai(repeat: int = 5, **_options: Any) -> dict[str, float]:
    engine = midgame()
    rates, cpu_rates, heuristic_ms = [], [], []
    for _ in range(max(1, repeat)):
        player = MinimaxAI(nodes=BENCH_NODES)
        start, cpu = time.perf_counter(), time.process_time()
        player.choose(engine, random.Random(0), Budget())
        spent, cpu_spent = time.perf_counter() - start, time.process_time() - cpu
        assert player.last is not None
        rates.append(player.last.nodes / spent)
        cpu_rates.append(player.last.nodes / max(cpu_spent, 1e-9))
        h = HeuristicAI()
        start = time.perf_counter()
        for _ in range(10):
            h.choose(engine, random.Random(0), Budget())
        heuristic_ms.append((time.perf_counter() - start) / 10 * 1000)
    # Wall-clock rate is the figure asked for; the CPU-time rate says what the code does when
    # the machine is shared (other processes take wall time, not this process's CPU time).
    return {"ai.minimax_nodes_per_s": statistics.median(rates),
            "ai.minimax_nodes_per_cpu_s": statistics.median(cpu_rates),
            "ai.heuristic_action_ms": statistics.median(heuristic_ms)}
