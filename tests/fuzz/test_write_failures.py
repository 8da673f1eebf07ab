"""Every kind of write survives a full disk and a SIGKILL: the previous file stays whole and no
temporary is left behind (a killed writer's is swept by the next rewrite of that file).

The full disk is simulated in-process: `os.fsync` (where a delayed-allocation filesystem
reports ENOSPC) or `os.replace` raises errno 28 while the real command runs; each kind of file
is written by the command a user runs (a replay, a CSV, a PNG still, a generated map and
level, a save, the score table)."""

from __future__ import annotations

import builtins
import errno
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from game import ROOT
from game.levels.files import atomic_write, temporaries
from game.session.scores import record_score
from tests.helpers import OUTPOST, run_cli

OLD = b"the previous file, whole\n"


def full_disk(*_args: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def play_and_quit(target: Path) -> list[str]:
    """One move, then q (the prompt's answers are patched in): the save is written twice."""
    return ["play", OUTPOST, "--text", "--plain", "--blue", "random", "--save", str(target)]


# name -> (file name, argv builder); each command writes exactly that file
WRITES: dict[str, tuple[str, Callable[[Path], list[str]]]] = {
    "replay": ("game.json", lambda t: ["match", OUTPOST, "--red", "random", "--blue", "random",
                                       "--seed", "1", "--replay", str(t)]),
    "csv": ("games.csv", lambda t: ["tournament", "--maps", OUTPOST, "--ais", "random,heuristic",
                                    "--games", "2", "--csv", str(t)]),
    "png still": ("board.png", lambda t: ["render", OUTPOST, "-o", str(t)]),
    "generated map": ("gen.png", lambda t: ["generate", "skirmish", "--seed", "1", "--out",
                                            str(t)]),
    "generated level": ("lvl-01.txt", lambda t: ["generate", "descent", "--count", "1",
                                                 "--out", str(t.parent), "--prefix", "lvl"]),
    "save": ("save.json", play_and_quit),
}


@pytest.mark.parametrize("where", ["fsync", "replace"])
@pytest.mark.parametrize("kind", sorted(WRITES))
def test_a_full_disk_keeps_the_previous_file_and_leaves_no_temporary(
        tmp_path, capsys, monkeypatch, kind, where):
    name, argv = WRITES[kind]
    target = tmp_path / name
    target.write_bytes(OLD)
    answers = iter(["1", "q"])
    monkeypatch.setattr(builtins, "input", lambda _prompt="": next(answers))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(os, where, full_disk)
    code, _, err = run_cli(capsys, *argv(target))
    monkeypatch.undo()
    assert code == 2, err
    assert err.count("\n") == 1 and "disk is full" in err, err
    assert "Traceback" not in err
    assert target.read_bytes() == OLD
    assert temporaries(target) == [] and not list(tmp_path.glob(".*.tmp"))


def test_a_full_disk_keeps_the_score_table(tmp_path, monkeypatch):
    from game.errors import UserError

    table = tmp_path / "scores.json"
    assert record_score("lvl", "ada", 9, table)
    before = table.read_bytes()
    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(UserError, match="disk is full"):
        record_score("lvl", "ada", 3, table)
    monkeypatch.undo()
    assert table.read_bytes() == before and temporaries(table) == []


KILLED_WRITER = """
import sys
from pathlib import Path
from game.levels.files import atomic_write
target, size = Path(sys.argv[1]), int(sys.argv[2])
print("ready", flush=True)
while True:
    atomic_write(target, b"x" * size)
"""


@pytest.mark.parametrize("kills", [3])
def test_sigkill_mid_write_keeps_a_whole_file_and_the_next_write_sweeps(tmp_path, kills):
    """A writer rewriting a 4 MiB file in a loop is killed at random moments: the file is
    always the old one or the new one whole, and the next rewrite sweeps what the kill left."""
    import random

    target = tmp_path / "big.bin"
    size = 4 * 2**20
    target.write_bytes(b"o" * size)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    rng = random.Random(25)
    for _ in range(kills):
        proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(target), str(size)],
                                stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        data = target.read_bytes()
        assert data in (b"o" * size, b"x" * size)
    atomic_write(target, b"after")  # this process's first rewrite of it sweeps dead writers'
    assert target.read_bytes() == b"after" and temporaries(target) == []
