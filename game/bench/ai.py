"""`rulefront bench ai`: search speed of minimax and MCTS, heuristic milliseconds per action.

All are measured on one fixed mid-game position of the default map: heuristic against
heuristic from seed 0 until blue's first action of round 8, when the heroes are in contact.
`ai.minimax_nodes_per_s` is the alpha-beta core over single actions (`minimax:plan=action`,
the search whole-turn minimax also runs for forced wins); `ai.minimax_turn_nodes_per_s` is
whole-turn minimax, whose nodes cost more (the heuristic builds every candidate turn);
`ai.mcts_sims_per_s` is MCTS simulations (one whole turn opened and a leaf scored each).
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
from systems.ai.mcts import MctsAI
from systems.ai.minimax import MinimaxAI

BENCH_ROUND = 8
BENCH_NODES = 20_000
BENCH_TURN_NODES = 3_000
BENCH_SIMS = 60


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
    rates, cpu_rates, heuristic_ms, turn_rates, sims_rates = [], [], [], [], []
    turn_cpu: list[float] = []
    sims_cpu: list[float] = []
    for _ in range(max(1, repeat)):
        player = MinimaxAI(nodes=BENCH_NODES, plan="action")
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
        turn_player = MinimaxAI(nodes=BENCH_TURN_NODES)
        start, cpu = time.perf_counter(), time.process_time()
        turn_player.choose(engine, random.Random(0), Budget())
        assert turn_player.last is not None
        turn_rates.append(turn_player.last.nodes / (time.perf_counter() - start))
        turn_cpu.append(turn_player.last.nodes / max(time.process_time() - cpu, 1e-9))
        mcts = MctsAI(sims=BENCH_SIMS)
        start, cpu = time.perf_counter(), time.process_time()
        mcts.choose(engine, random.Random(0), Budget())
        assert mcts.last is not None
        sims_rates.append(mcts.last.sims / (time.perf_counter() - start))
        sims_cpu.append(mcts.last.sims / max(time.process_time() - cpu, 1e-9))
    # Wall-clock rate is the figure asked for; the CPU-time rate says what the code does when
    # the machine is shared (other processes take wall time, not this process's CPU time).
    return {"ai.minimax_nodes_per_s": statistics.median(rates),
            "ai.minimax_nodes_per_cpu_s": statistics.median(cpu_rates),
            "ai.heuristic_action_ms": statistics.median(heuristic_ms),
            "ai.minimax_turn_nodes_per_s": statistics.median(turn_rates),
            "ai.minimax_turn_nodes_per_cpu_s": statistics.median(turn_cpu),
            "ai.mcts_sims_per_s": statistics.median(sims_rates),
            "ai.mcts_sims_per_cpu_s": statistics.median(sims_cpu)}
