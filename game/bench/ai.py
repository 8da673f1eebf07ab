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


def _rates(player: Any, engine: Any, done: Any) -> tuple[float, float]:
    """One search's work (`done(player.last)`) per second of wall clock and per CPU second."""
    start, cpu = time.perf_counter(), time.process_time()
    player.choose(engine, random.Random(0), Budget())
    spent, cpu_spent = time.perf_counter() - start, time.process_time() - cpu
    assert player.last is not None
    work = done(player.last)
    return work / spent, work / max(cpu_spent, 1e-9)


def ai(repeat: int = 5, **_options: Any) -> dict[str, float]:
    engine = midgame()
    rates: dict[str, list[tuple[float, float]]] = {"minimax": [], "turn": [], "mcts": []}
    heuristic_ms = []
    for _ in range(max(1, repeat)):
        nodes = lambda last: last.nodes  # noqa: E731
        rates["minimax"].append(_rates(MinimaxAI(nodes=BENCH_NODES, plan="action"), engine, nodes))
        start = time.perf_counter()
        for _ in range(10):  # a new heuristic each time: nothing remembered from the last call
            HeuristicAI().choose(engine, random.Random(0), Budget())
        heuristic_ms.append((time.perf_counter() - start) / 10 * 1000)
        rates["turn"].append(_rates(MinimaxAI(nodes=BENCH_TURN_NODES), engine, nodes))
        rates["mcts"].append(_rates(MctsAI(sims=BENCH_SIMS), engine, lambda last: last.sims))

    def median(name: str, cpu: bool) -> float:
        return statistics.median(pair[cpu] for pair in rates[name])

    # Wall-clock rate is the figure asked for; the CPU-time rate says what the code does when
    # the machine is shared (other processes take wall time, not this process's CPU time).
    return {"ai.minimax_nodes_per_s": median("minimax", False),
            "ai.minimax_nodes_per_cpu_s": median("minimax", True),
            "ai.heuristic_action_ms": statistics.median(heuristic_ms),
            "ai.minimax_turn_nodes_per_s": median("turn", False),
            "ai.minimax_turn_nodes_per_cpu_s": median("turn", True),
            "ai.mcts_sims_per_s": median("mcts", False),
            "ai.mcts_sims_per_cpu_s": median("mcts", True)}
