"""`rulefront bench cli`: start-up figures, measured on the code the bench belongs to."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import game
from game.bench import GROUPS, process_wall_s
from tests.helpers import run_json

ROOT = Path(game.__file__).resolve().parent.parent


def test_a_timed_process_runs_this_checkout_of_the_game():
    check = f"import game; assert game.__file__.startswith({str(ROOT)!r}), game.__file__"
    assert process_wall_s(["-c", check], repeat=1) > 0
    with pytest.raises(subprocess.CalledProcessError):
        process_wall_s(["-c", "raise SystemExit(3)"], repeat=1)  # a failed run is no figure


def test_bench_cli_reports_python_alone_and_each_light_command(capsys):
    assert "cli" in GROUPS
    figures = run_json(capsys, "bench", "cli", "--repeat", "1", "--json")
    assert set(figures) == {"cli.python_ms", "cli.startup_ms", "cli.map_legend_ms",
                            "cli.match_json_ms"}
    assert all(value > 0 for value in figures.values())
