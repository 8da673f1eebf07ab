"""A resumed game saves back to the file it came from: the default autosave, which may hold
another game, is left alone (and --save still chooses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from game import ROOT
from tests.helpers import MAPS


def play(tmp_path: Path, *args: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-m", "game", "play", "--text", "--plain", *args],
                          input="e\nq\n", capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr


def commands(path: Path) -> int:
    return len(json.loads(path.read_text())["commands"])


def test_resuming_a_save_then_quitting_writes_that_save_not_the_autosave(tmp_path):
    mine, autosave = tmp_path / "mine.json", tmp_path / "data" / "rulefront" / "autosave.json"
    play(tmp_path, str(MAPS / "outpost.png"), "--blue", "random", "--save", str(mine))
    first = commands(mine)
    play(tmp_path, "--resume", str(mine))
    assert commands(mine) > first  # the second session's turn went into the same file
    assert not autosave.exists()
    other = tmp_path / "other.json"
    play(tmp_path, "--resume", str(mine), "--save", str(other))
    assert commands(other) > commands(mine)
