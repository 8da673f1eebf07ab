"""`rulefront bench octal`: the speed figures the impartial-games capability promises.

The jobs compared with the compiled solvers (docs/grundy.md) are timed as a user runs them:
each a new `rulefront grundy` process, start-up included, next to `python -c pass` (the floor
no Python program goes under); the two big proofs also give their peak memory.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from game.bench import median_time
from game.grundy.codes import parse_code
from game.grundy.periodicity import prove_period, solve
from game.grundy.solver import Solver

ROOT = str(Path(__file__).resolve().parents[2])

# Figure name -> the `rulefront grundy` arguments of a small job (milliseconds, new process).
SMALL = {
    "octal.small_06_1e5_ms": ["0.6", "--n", "100000"],
    "octal.small_016_ms": ["0.16", "--period"],
    "octal.small_0165_ms": ["0.165", "--period"],
    "octal.small_0127_ms": ["0.127", "--period"],
    "octal.small_056_ms": ["0.56", "--period"],
}


def _officers(count: int = 100_001) -> None:
    Solver(parse_code("0.6")).extend_to(count)


def _prove(code: str) -> None:
    proof = prove_period(parse_code(code), 10_000_000)
    assert proof.period is not None, f"{code} was not proven"


def process(argv: list[str], repeat: int) -> tuple[float, float]:
    """Median wall seconds and largest peak resident memory (MB) of `python ARGV` run as a new
    process `repeat` times, its output thrown away; this checkout first on its path."""
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([ROOT, *filter(None, [os.environ.get("PYTHONPATH")])])}
    walls, peak = [], 0.0
    for _ in range(repeat):
        started = time.perf_counter()
        child = subprocess.Popen([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            # ru_maxrss is kilobytes on Linux, bytes on macOS.
            peak = max(peak, usage.ru_maxrss / (2**20 if sys.platform == "darwin" else 2**10))
        else:
            child.wait()
        walls.append(time.perf_counter() - started)
        if child.returncode:
            raise RuntimeError(f"python {' '.join(argv)} exited with {child.returncode}")
    return statistics.median(walls), peak


def octal(repeat: int = 5, **_: Any) -> dict[str, float]:
    """Medians in seconds (or ms); Officers to 10^6 (~4-10 s a run) and the 0.376 proof
    (~15-40 s) use at most 3 runs."""
    _prove("0.51")  # build or load the kernels before anything is timed
    few = max(1, min(repeat, 3))
    figures = {
        "octal.officers_1e5_s": median_time(_officers, repeat),
        "octal.officers_1e6_s": median_time(lambda: _officers(1_000_001), few),
        "octal.g137_1e6_s": median_time(lambda: solve(parse_code("0.137"), 1_000_001), repeat),
        "octal.prove_016_s": median_time(lambda: _prove("0.16"), repeat),
        "octal.python_ms": process(["-c", "pass"], repeat)[0] * 1000,
    }
    for name, args in SMALL.items():
        figures[name] = process(["-m", "game", "grundy", *args], repeat)[0] * 1000
    wall, peak = process(["-m", "game", "grundy", "0.376", "--period"], few)
    figures.update({"octal.prove_0376_wall_s": wall, "octal.prove_0376_peak_mb": peak})
    return figures
