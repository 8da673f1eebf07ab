"""The scripting interface: play --moves --json, solve, hints, replays of solutions, Keke
import and the level generators."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import MAPS, ROOT
from tests.helpers import run_cli, run_json

KEKE_DEMO = ROOT.parent / "shared" / "benchmarks" / "keke" / "demo_LEVELS.json"
FIRST = str(MAPS / "puzzles" / "first-steps.keke")


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "rulefront"


def test_play_moves_json_reports_status_rules_objects_and_words(capsys):
    state = run_json(capsys, "play", FIRST, "--moves", "rr", "--json")
    assert state["status"] == "playing"
    assert state["moves"] == 2
    assert state["rules"] == ["BABA IS YOU", "FLAG IS WIN"]
    assert {"kind": "baba", "x": 4, "y": 1} in state["objects"]
    assert {"text": "BABA", "x": 1, "y": 3} in state["words"]


def test_play_moves_to_the_flag_wins(capsys):
    assert run_json(capsys, "play", FIRST, "--moves", "rrrrr", "--json")["status"] == "won"


@pytest.mark.skipif(not KEKE_DEMO.exists(), reason="Keke benchmark not present")
def test_a_keke_set_level_plays_by_id(capsys):
    state = run_json(capsys, "play", str(KEKE_DEMO), "--level", "1", "--moves", "rrrrr",
                     "--json")
    assert state["status"] == "won"


def test_bad_moves_are_a_user_error(capsys):
    code, _, err = run_cli(capsys, "play", FIRST, "--moves", "rx", "--json")
    assert code == 2 and "moves are u d l r" in err


def test_solve_prints_json_and_saves_a_replay_that_verifies(capsys, data_home):
    report = run_json(capsys, "solve", FIRST, "--json")
    assert report["solved"] and report["moves"] == "rrrrr" and report["length"] == 5
    assert Path(report["saved"]).exists()
    verdict = run_json(capsys, "replay", report["saved"], "--json")
    assert verdict["verified"] and verdict["result"]["winner"] == "player"


def test_hint_gives_the_next_move_from_the_current_state(capsys):
    report = run_json(capsys, "solve", FIRST, "--moves", "rr", "--hint", "--json")
    assert report["hint"] == "r" and report["length"] == 3


def test_solve_refuses_fewer_than_one_worker(capsys):
    code, _, err = run_cli(capsys, "solve", FIRST, "--workers", "0")
    assert code == 2 and "--workers: must be from 1 to 64, not 0" in err


def test_a_level_lost_for_good_is_reported(capsys, tmp_path):
    level = tmp_path / "stuck.keke"
    level.write_text("______\n_b..._\n_B12._\n______\n")
    code, out, _ = run_cli(capsys, "solve", str(level), "--json")
    assert code == 1
    report = json.loads(out)
    assert not report["solved"] and "cannot be won" in report["note"]


def test_solve_descent_json(capsys):
    report = run_json(capsys, "solve", str(MAPS / "descent" / "tower.txt"), "--json")
    assert report["length"] == 10


@pytest.mark.skipif(not KEKE_DEMO.exists(), reason="Keke benchmark not present")
def test_import_keke_writes_png_maps_that_play(capsys, tmp_path):
    assert run_cli(capsys, "map", "import-keke", str(KEKE_DEMO), "--out", str(tmp_path / "k"))[0] == 0
    state = run_json(capsys, "play", str(tmp_path / "k" / "keke-1.png"), "--moves", "rrrrr",
                     "--json")
    assert state["status"] == "won"


def test_generate_descent_writes_solvable_ranked_levels(capsys, tmp_path):
    rows = run_json(capsys, "generate", "descent", "--size", "4", "--count", "2", "--out",
                    str(tmp_path / "g"), "--seed", "3", "--json")
    assert len(rows) == 2
    assert rows[0]["optimal"] <= rows[1]["optimal"]
    for row in rows:
        assert row["stars"]["3"] == row["optimal"]
        report = run_json(capsys, "solve", row["file"], "--json")
        assert report["length"] == row["optimal"]


@pytest.mark.skipif(not KEKE_DEMO.exists(), reason="Keke benchmark not present")
def test_the_keke_demo_set_is_solved_and_every_solution_replays(capsys):
    # a generous budget: each level takes well under a second alone, but CI may be busy
    report = run_json(capsys, "solve", "--keke", str(KEKE_DEMO), "--budget", "10", "--json")
    assert report["solved"] == 14
    assert all(row["solved"] for row in report["levels"])


@pytest.mark.skipif(not KEKE_DEMO.exists(), reason="Keke benchmark not present")
def test_level_ids_pick_the_levels_of_a_keke_set_to_solve(capsys):
    report = run_json(capsys, "solve", "--keke", str(KEKE_DEMO), "--level", "3,1", "--json")
    assert [row["id"] for row in report["levels"]] == ["1", "3"]
    code, _, err = run_cli(capsys, "solve", "--keke", str(KEKE_DEMO), "--level", "99")
    assert code == 2 and "has no level '99'" in err


@pytest.mark.skipif(not KEKE_DEMO.exists(), reason="Keke benchmark not present")
def test_states_caps_each_search_of_a_keke_set_as_it_does_one_level(capsys):
    # breadth-first needs 8,378 states on demo level 3; --states stops it long before
    capped = run_json(capsys, "solve", "--keke", str(KEKE_DEMO), "--level", "3",
                      "--method", "bfs", "--states", "50", "--json")
    row = capped["levels"][0]
    assert not row["solved"] and row["states"] < 60
    whole = run_json(capsys, "solve", "--keke", str(KEKE_DEMO), "--level", "3",
                     "--method", "bfs", "--json")
    assert whole["levels"][0]["solved"] and whole["levels"][0]["states"] > 1000


@pytest.mark.skipif(not KEKE_DEMO.exists(), reason="Keke benchmark not present")
def test_stored_solutions_report_says_why_a_level_fails(capsys):
    report = run_json(capsys, "solve", "--keke", str(KEKE_DEMO), "--stored", "--json")
    assert report["total"] == 14
    for row in report["levels"]:
        assert row["wins"] or row["why"]


@pytest.mark.parametrize("text, fix", [
    ("b..\n", "border"),
    ("_____\n_b?._\n_____\n", "legend"),
    ("_____\n_b.._\n", "border"),
])
def test_broken_keke_files_are_refused_with_a_sentence(tmp_path, capsys, text, fix):
    level = tmp_path / "bad.keke"
    level.write_text(text)
    code, _, err = run_cli(capsys, "play", str(level), "--moves", "r", "--json")
    assert code == 2 and fix in err


def test_generate_skirmish_writes_a_playable_map(capsys, tmp_path):
    out = tmp_path / "gen.png"
    assert run_cli(capsys, "generate", "skirmish", "--size", "12", "--seed", "2", "--out",
                   str(out))[0] == 0
    assert run_json(capsys, "map", "check", str(out), "--json")["ok"] is True


def test_solve_keke_unsolved_prints_the_levels_it_missed(capsys, tmp_path):
    level_set = tmp_path / "two.json"
    level_set.write_text(json.dumps({"levels": [
        {"id": 1, "name": "walk", "ascii": "______\n_b.f._\n_B12._\n_F13._\n______",
         "solution": "rr"},
        {"id": 2, "name": "stuck", "ascii": "_____\n_b.._\n_B12_\n_____", "solution": "r"},
    ]}))
    code, out, _ = run_cli(capsys, "solve", "--keke", str(level_set), "--budget", "2",
                           "--workers", "1", "--unsolved")
    assert code == 0
    assert "level 2 'stuck': no solution exists here" in out and "_b.._" in out
    assert "level 1 " not in out and "unsolved: 2" in out
    report = run_json(capsys, "solve", "--keke", str(level_set), "--budget", "2", "--json")
    assert report["solved"] == 1 and report["unsolved"] == ["2"]


@pytest.mark.skipif(not KEKE_DEMO.exists(), reason="Keke benchmark not present")
def test_solve_keke_reports_the_levels_solved_close_to_their_budget(tmp_path):
    # At 1.5 s a level, every solve leaves less than the 2 s a close call is counted within.
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    args = [sys.executable, "-m", "game", "solve", "--keke", str(KEKE_DEMO), "--level", "1,2",
            "--budget", "1.5", "--workers", "1"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "margin: 2 solved with less than 2 s of the budget left: " in done.stdout
    report = json.loads(subprocess.run([*args, "--json"], capture_output=True, text=True,
                                       env=env, timeout=120).stdout)
    assert sorted(report["tight"]) == ["1", "2"] and report["tight_within"] == 2
    assert all(row["solved"] and row["seconds"] < 1.5 for row in report["levels"])
