"""`rulefront bench octal`: the speed figures the impartial-games capability promises."""

from __future__ import annotations

from typing import Any

from game.bench import median_time, process_wall_s
from game.grundy.codes import parse_code
from game.grundy.periodicity import prove_period, solve
from game.grundy.solver import Solver


def _officers(count: int = 100_001) -> None:
    Solver(parse_code("0.6")).extend_to(count)


def _prove(code: str) -> None:
    proof = prove_period(parse_code(code), 10_000_000)
    assert proof.period is not None, f"{code} was not proven"


def octal(repeat: int = 5, **_: Any) -> dict[str, float]:
    """Medians in seconds; Officers to 10^6 (~5-10 s a run) and the 0.376 proof (~20-40 s)
    use at most 3 runs."""
    _prove("0.51")  # build or load the kernels before anything is timed
    few = max(1, min(repeat, 3))
    return {
        "octal.officers_1e5_s": median_time(_officers, repeat),
        "octal.officers_1e6_s": median_time(lambda: _officers(1_000_001), few),
        "octal.g137_1e6_s": median_time(lambda: solve(parse_code("0.137"), 1_000_001), repeat),
        "octal.prove_016_s": median_time(lambda: _prove("0.16"), repeat),
        "octal.prove_0376_s": median_time(lambda: _prove("0.376"), few),
        # The same work as a user runs it: a new process, start-up included.
        "octal.officers_1e5_wall_s": process_wall_s(["-m", "game", "grundy", "0.6", "--n",
                                                     "100000"], repeat),
        "octal.prove_016_wall_s": process_wall_s(["-m", "game", "grundy", "0.16", "--period"],
                                                 repeat),
    }
