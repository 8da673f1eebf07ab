"""`rulefront bench envs`: the figures of a learner's loop on duel, named as the docs name them."""

from __future__ import annotations

import json
import subprocess
import sys

FIGURES = {"envs.pettingzoo_steps_per_s", "envs.pettingzoo_steps_per_cpu_s",
           "envs.pettingzoo_kept_steps_per_s", "envs.pettingzoo_kept_steps_per_cpu_s",
           "envs.raw_steps_per_s", "envs.raw_steps_per_cpu_s", "envs.engine_steps_per_s",
           "envs.engine_steps_per_cpu_s", "envs.observe_us",
           "envs.fill_us", "envs.fill_again_us"}


def test_bench_envs_reports_the_random_loop_and_observation_figures() -> None:
    done = subprocess.run([sys.executable, "-m", "game", "bench", "envs", "--repeat", "1",
                           "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) == FIGURES
    assert all(value > 0 for value in figures.values())


def test_bench_lists_the_envs_group() -> None:
    done = subprocess.run([sys.executable, "-m", "game", "bench", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "envs" in done.stdout
