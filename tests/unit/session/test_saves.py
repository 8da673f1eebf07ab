"""Saves: the atomic write leaves no temporary behind on any failure, and the next run sweeps
the temporaries a killed run left beside its save (and only those)."""

from __future__ import annotations

import json
import os

import pytest

from game.levels.loader import load_engine
from game.levels.maps import atomic_write, sweep_temporaries, temporaries
from game.session import saves
from game.session.match import make_seats
from tests.helpers import OUTPOST


def test_a_failed_rename_removes_the_temporary_and_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    target.write_text("old")

    def refuse(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
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
