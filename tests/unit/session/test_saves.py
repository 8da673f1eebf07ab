"""Saves: the atomic write leaves no temporary behind on any failure, and the next run sweeps
the temporaries a killed run left beside its save (and only those)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.errors import UserError
from game.levels.files import atomic_write, sweep_temporaries, temporaries
from game.levels.loader import load_engine
from game.session import saves
from game.session.match import make_seats
from tests.helpers import OUTPOST


def test_a_failed_rename_removes_the_temporary_and_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    target.write_text("old")

    def refuse(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(UserError, match=r"save.json: cannot be written: the disk is full"):
        atomic_write(target, b"new")
    assert target.read_text() == "old" and temporaries(target) == []


def test_a_failed_write_removes_the_temporary(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, b"new")
    assert not target.exists() and temporaries(target) == []


def test_the_sweep_removes_only_this_saves_temporaries(tmp_path):
    target = tmp_path / "save[1].json"
    mine = [tmp_path / ".save[1].json.abc123.tmp", tmp_path / ".save[1].json.x.tmp"]
    others = [tmp_path / ".other.json.abc.tmp", tmp_path / "save[1].json.tmp",
              tmp_path / ".save[1].json.abc"]
    for path in mine + others:
        path.write_text("partial")
    assert sweep_temporaries(target) == 2
    assert not any(p.exists() for p in mine) and all(p.exists() for p in others)


def test_the_sweep_leaves_a_running_writers_temporary_alone(tmp_path):
    target = tmp_path / "save.json"
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = tmp_path / f".save.json.{int(done.stdout)}-abc.tmp"  # its writer has exited
    live = tmp_path / f".save.json.{os.getpid()}-def.tmp"  # this process is still writing
    for path in (dead, live):
        path.write_text("partial")
    assert sweep_temporaries(target) == 1
    assert live.exists() and not dead.exists()


def test_a_write_follows_a_symlink_and_keeps_it(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write(link, b"new")
    assert link.is_symlink() and real.read_text() == "new"


@pytest.mark.parametrize("name", ["", "plain/save.json"])
def test_a_write_to_no_name_or_under_a_file_is_one_sentence(tmp_path, name):
    (tmp_path / "plain").write_text("a file, not a folder")
    target = tmp_path / name if name else ""
    with pytest.raises(UserError, match=r"empty file name|plain is a file, not a folder"):
        atomic_write(target, b"{}")
    assert (tmp_path / "plain").read_text() == "a file, not a folder"


def test_the_first_autosave_of_a_run_sweeps_what_a_killed_run_left(tmp_path, monkeypatch):
    monkeypatch.setattr(saves, "_swept", set())
    target = tmp_path / "auto.json"
    stale = tmp_path / ".auto.json.k1ll3d.tmp"
    stale.write_text('{"format": 1, "map": ')
    engine = load_engine(OUTPOST, seed=1)
    seats = make_seats(engine, {"red": "random", "blue": "random"}, 1)
    saves.save_game(target, engine, seats, 1)
    assert not stale.exists() and json.loads(target.read_text())["rng_states"].keys() == {
        "red", "blue"}



def test_a_map_outside_the_working_folder_is_recorded_whole_and_read_from_anywhere(
        tmp_path, monkeypatch):
    """A save made in one folder opens from another: a map outside the working folder is kept
    as an absolute path, never as '../..' that only holds where the save was written."""
    from game.session.replay import read_record, rebuild, record_of, write_record

    engine = load_engine(OUTPOST)
    engine.submit(engine.legal_actions()[0])
    writer, reader = tmp_path / "writer", tmp_path / "reader" / "deeper"
    writer.mkdir()
    reader.mkdir(parents=True)
    monkeypatch.chdir(writer)
    write_record(writer / "save.json", record_of(engine, 0, {}))
    monkeypatch.chdir(reader)
    record = read_record(writer / "save.json")
    assert record.map_path == str(Path(OUTPOST).resolve())
    assert rebuild(record).world.state_key() == engine.world.state_key()


def test_a_map_below_the_working_folder_stays_relative(monkeypatch):
    from game.session.replay import portable_path

    monkeypatch.chdir(Path(OUTPOST).parent)
    assert portable_path(Path(OUTPOST)) == Path(OUTPOST).name
