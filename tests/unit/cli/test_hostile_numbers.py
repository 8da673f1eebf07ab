"""Seat options are range-checked where a seat is parsed: `think=nan`, `think=1e999`,
`mcts:c=nan`, negative or huge budgets are one sentence and exit 2 before any game, whether
the seat comes from --red/--blue, a tournament's --ais, or a save being resumed; --think and
--nodes take the same bounds as the options."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from game import ROOT
from systems.ai.base import OPTION_LIMITS, option_value
from tests.helpers import OUTPOST, run_cli

HOSTILE = ["minimax:think=nan", "minimax:think=inf", "mcts:think=1e999", "mcts:c=nan",
           "minimax:nodes=-5", "mcts:sims=1e30", "minimax:width=1e300", "minimax:depth=1.5",
           "mcts:widen=0", "mcts:think=-1", "mcts:turns=0", "minimax:nodes=1" + "0" * 5000]


@pytest.mark.parametrize("seat", HOSTILE)
def test_a_hostile_seat_option_is_one_sentence_before_any_game(capsys, seat):
    code, out, err = run_cli(capsys, "match", OUTPOST, "--red", seat, "--blue", "random",
                             "--games", "1")
    name = seat.split(":")[1].split("=")[0]
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"option {name} must be" in err, err


@pytest.mark.parametrize("flag,value", [("--think", "nan"), ("--think", "1e300"),
                                        ("--think", "0"), ("--nodes", "0"),
                                        ("--nodes", "1e30"), ("--nodes", "100000001")])
def test_the_think_and_nodes_flags_take_the_options_bounds(capsys, flag, value):
    code, out, err = run_cli(capsys, "match", OUTPOST, "--red", "random", "--blue", "heuristic",
                             flag, value)
    assert code == 2 and out == "" and f"{flag}: must be" in err and err.count("\n") == 1


def test_a_tournament_refuses_a_hostile_seat_before_any_game(capsys, tmp_path):
    results = tmp_path / "games.jsonl"
    code, _, err = run_cli(capsys, "tournament", "--maps", OUTPOST, "--ais",
                           "random,mcts:c=nan", "--games", "2", "--results", str(results))
    assert code == 2 and "option c must be a number from 0 to 1,000" in err
    assert not results.exists() or results.read_text() == ""


def test_a_save_naming_a_hostile_seat_is_refused_on_resume(tmp_path):
    """The save's own seat is checked like a typed one (a subprocess, as a user resumes)."""
    save = tmp_path / "save.json"
    env_home = {"XDG_DATA_HOME": str(tmp_path / "data")}
    play = [sys.executable, "-m", "game", "play", "--text", "--plain"]
    done = subprocess.run([*play, OUTPOST, "--blue", "random", "--save", str(save)],
                          input="q\n", capture_output=True, text=True, cwd=ROOT,
                          env=_env(env_home), timeout=120)
    assert done.returncode == 0, done.stderr
    raw = json.loads(save.read_text())
    raw["seats"]["blue"] = "minimax:think=nan"
    save.write_text(json.dumps(raw))
    resumed = subprocess.run([*play, "--resume", str(save)], input="q\n", capture_output=True,
                             text=True, cwd=ROOT, env=_env(env_home), timeout=120)
    assert resumed.returncode == 2 and resumed.stdout == ""
    assert resumed.stderr.count("\n") == 1 and "option think must be" in resumed.stderr
    assert json.loads(save.read_text())["seats"]["blue"] == "minimax:think=nan"  # untouched


def test_every_limited_option_refuses_non_finite_values_and_takes_its_bounds():
    for name, (low, high, whole, closed) in OPTION_LIMITS.items():
        for bad in ("nan", "inf", "-inf", "1e999", str(high * 2), "x", ""):
            with pytest.raises(ValueError, match=f"option {name} must be"):
                option_value(name, bad)
        assert option_value(name, str(int(high) if whole else high)) == high
        if closed:
            assert option_value(name, str(int(low) if whole else low)) == low
        else:
            with pytest.raises(ValueError):
                option_value(name, str(low))


def _env(extra: dict[str, str]) -> dict[str, str]:
    import os

    return dict(os.environ, PYTHONPATH=str(ROOT), **extra)



def test_the_docs_say_the_seat_option_bounds_and_what_a_file_can_never_do():
    from game import ROOT

    formats = (ROOT / "docs" / "formats.md").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "`think` more than 0 and at most 3,600 seconds" in formats
    assert "### What a file can never make Rulefront do" in formats
    assert "#what-a-file-can-never-make-rulefront-do" in readme
