"""`rulefront bench octal`: the speed figures the impartial-games capability promises."""

from __future__ import annotations

from typing import Any

from game.bench import median_time
from game.grundy.codes import parse_code
from game.grundy.periodicity import prove_period, solve
from game.grundy.solver import Solver


def _officers() -> None:
    Solver(parse_code("0.6")).extend_to(100_001)


def _prove(code: str) -> None:
    proof = prove_period(parse_code(code), 10_000_000)
    assert proof.period is not None, f"{code} was not proven"


def octal(repeat: int = 5, **_: Any) -> dict[str, float]:
    """Medians in seconds; the 0.376 proof (~40 s a run) uses at most 3 runs."""
    _prove("0.51")  # compile or load the kernels before anything is timed
    return {
        "octal.officers_1e5_s": median_time(_officers, repeat),
        "octal.g137_1e6_s": median_time(lambda: solve(parse_code("0.137"), 1_000_001), repeat),
        "octal.prove_016_s": median_time(lambda: _prove("0.16"), repeat),
        "octal.prove_0376_s": median_time(lambda: _prove("0.376"), max(1, min(repeat, 3))),
    }
