"""The progress bar: rich's bar with count, rate and time left when drawn; nothing at all (rich
not even imported) when not wanted."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from game.progress import Progress, wanted
from tests.helpers import OUTPOST, run_cli

ROOT = Path(__file__).resolve().parents[3]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_drawn_bar_shows_the_count_the_rate_the_time_left_and_the_detail() -> None:
    out = io.StringIO()
    bar = Progress("grundy 0.137", True, out)
    for done in range(0, 41, 10):
        bar.update(done, 40, f"best {done}")
    bar.close()
    bar.close()  # a second close draws nothing more
    last = out.getvalue().split("\r")[-1]
    assert "grundy 0.137" in last and "40/40" in last and "/s" in last
    assert "left" in last and "best 40" in last
    assert out.getvalue().endswith("\n\x1b[?25h")
    assert "\x1b[3" not in out.getvalue()  # no colours when the stream is not a terminal


def test_a_bar_not_wanted_draws_nothing_and_never_imports_rich() -> None:
    code = ("import io, sys; from game.progress import Progress; out = io.StringIO(); "
            "bar = Progress('x', False, out); bar.update(1, 2); bar.close(); "
            "print(repr(out.getvalue()), 'rich' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.split() == ["''", "False"], done.stderr


@pytest.mark.parametrize(("asked", "stream", "expected"), [
    (False, io.StringIO(), False), (True, io.StringIO(), True), (False, Terminal(), True)])
def test_progress_is_wanted_when_asked_or_at_a_terminal(asked, stream, expected) -> None:
    assert wanted(asked, stream) is expected


def test_the_command_line_imports_neither_rich_nor_the_environment_packages() -> None:
    heavy = ["rich", "pettingzoo", "gymnasium"]  # numba and ray: the start-up issue's test
    code = ("import sys, game.cli; game.cli.build_parser(); "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_match_games_draws_no_bar_when_stderr_is_not_a_terminal(capsys) -> None:
    code, out, err = run_cli(capsys, "match", OUTPOST, "--red", "heuristic", "--blue",
                             "random", "--games", "2")
    assert code == 0 and "2 games on" in out
    assert err == ""


def test_match_games_draws_the_bar_at_a_terminal(capsys, monkeypatch) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    code = __import__("game.cli", fromlist=["main"]).main(
        ["match", OUTPOST, "--red", "heuristic", "--blue", "random", "--games", "2"])
    assert code == 0
    assert "games" in terminal.getvalue() and "2/2" in terminal.getvalue()
