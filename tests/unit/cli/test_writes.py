"""Nothing from a file chooses where we write, and every write we make goes through one
writer (game.levels.maps.writable / atomic_write): checked before the work, a symlink followed
and kept, one sentence and exit 2 for a target that cannot be written (issue 25, items 2-3).
Each runs the real `rulefront` command as a process, as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def rulefront(*args: str, cwd: Path, stdout: int | None = subprocess.PIPE
              ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


def one_sentence(done: subprocess.CompletedProcess[str], says: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_keke_level_id_holding_a_path_writes_nothing_outside_the_folder(tmp_path):
    ascii_level = "______\n_K.2._\n_kSF._\n_bB1._\n_..fR_\n_1..._\n_3.r._\n_251O_\n______"
    hostile = {"levels": [{"id": "1", "ascii": ascii_level},
                          {"id": "/../../escaped", "ascii": ascii_level}]}
    (tmp_path / "set.json").write_text(json.dumps(hostile))
    (tmp_path / "out").mkdir()
    done = rulefront("map", "import-keke", "set.json", "--out", "out", cwd=tmp_path)
    one_sentence(done, "is not a plain file name")
    assert list((tmp_path / "out").iterdir()) == []  # refused whole, before the first write
    assert not (tmp_path.parent / "escaped.png").exists()


@pytest.mark.parametrize(("flag", "value", "says"), [
    ("--replay", "plain/r.json", "plain is a file, not a folder"),
    ("--replay", "", "an empty file name"),
    ("--replays", "plain", "is a file; name a folder"),
    ("--replay", "/dev/null", "is not a regular file"),
])
def test_a_bad_output_is_refused_before_the_match_is_played(tmp_path, flag, value, says):
    (tmp_path / "plain").write_text("a file")
    extra = ["--games", "2"] if flag == "--replays" else []
    done = rulefront("match", "duel", flag, value, *extra, cwd=tmp_path)
    one_sentence(done, says)
    assert "wins" not in done.stdout and "draw" not in done.stdout  # no game was played
    assert (tmp_path / "plain").read_text() == "a file"


def test_a_replay_written_through_a_symlink_keeps_the_link(tmp_path):
    (tmp_path / "real.json").write_text("old")
    (tmp_path / "link.json").symlink_to("real.json")
    done = rulefront("match", "outpost", "--seed", "2", "--replay", "link.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "link.json").is_symlink()
    assert json.loads((tmp_path / "real.json").read_text())["seed"] == 2


def test_output_to_a_pipe_through_dev_stdout_is_refused_not_replaced(tmp_path):
    done = rulefront("render", "duel", "-o", "/dev/stdout", cwd=tmp_path)
    one_sentence(done, "is not a regular file")
    assert done.stdout == ""


def test_a_full_standard_output_is_one_sentence(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "game", "maps"], cwd=tmp_path,
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    one_sentence(done, "standard output: No space left on device")


def test_a_named_pipe_given_to_import_keke_is_refused_not_read_forever(tmp_path):
    os.mkfifo(tmp_path / "p.keke")
    done = rulefront("map", "import-keke", "p.keke", "--out", "out", cwd=tmp_path)
    one_sentence(done, "is not a regular file")
