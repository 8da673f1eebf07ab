"""The command line: results as JSON, and every bad input as one sentence with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from game import ROOT
from game.cli import main
from tests.helpers import OUTPOST, draw_map, run_cli


def test_match_json_reports_winner_reason_rounds_commands_and_seed(capsys):
    code, out, _ = run_cli(capsys, "match", OUTPOST, "--seed", "4", "--json")
    result = json.loads(out)
    assert code == 0
    assert set(result) == {"winner", "reason", "rounds", "commands", "seed"}
    assert result["winner"] in ("red", "blue", "draw") and result["seed"] == 4


def test_a_replay_verifies_and_a_changed_map_is_refused(capsys, tmp_path):
    path = draw_map(tmp_path / "m.png", ["QS.....", "......b", "......q"])
    replay = tmp_path / "r.json"
    assert main(["match", str(path), "--seed", "1", "--replay", str(replay)]) == 0
    capsys.readouterr()
    code, out, _ = run_cli(capsys, "replay", str(replay), "--json")
    assert code == 0 and json.loads(out)["verified"] is True
    draw_map(path, ["QS.....", "#.....b", "......q"])
    code, _, err = run_cli(capsys, "replay", str(replay))
    assert code == 2 and "has changed since it was recorded" in err


def test_a_replay_with_an_illegal_command_is_refused(capsys, tmp_path):
    replay = tmp_path / "r.json"
    main(["match", OUTPOST, "--seed", "2", "--replay", str(replay)])
    capsys.readouterr()
    data = json.loads(replay.read_text())
    data["commands"].insert(0, {"type": "Move", "unit": 2, "x": 0, "y": 0})
    replay.write_text(json.dumps(data))
    code, _, err = run_cli(capsys, "replay", str(replay))
    assert code == 2 and "command 1" in err and "illegal" in err


@pytest.mark.parametrize("content", ["not json", '{"format": 99}', '{"format": 1}'])
def test_a_broken_replay_file_is_refused(capsys, tmp_path, content):
    path = tmp_path / "r.json"
    path.write_text(content)
    code, _, err = run_cli(capsys, "replay", str(path))
    assert code == 2 and str(path) in err and len(err.strip().splitlines()) == 1


def test_map_check_prints_the_board_and_what_it_found(capsys):
    code, out, _ = run_cli(capsys, "map", "check", OUTPOST)
    assert code == 0 and "12x12" in out and "red hq x1" in out
    assert ".Q" in out  # the board as text


def test_map_legend_lists_every_palette_colour(capsys):
    from game.data import palette

    code, out, _ = run_cli(capsys, "map", "legend")
    assert code == 0
    for entry in palette().values():
        assert entry.name in out


@pytest.mark.parametrize("args, words", [
    (["match", "nope.png"], "no such map file"),
    (["match", OUTPOST, "--red", "wizard"], "unknown AI 'wizard'"),
    (["match", OUTPOST, "--red", "random:depth=3"], "does not take the options"),
    (["map", "check", str(ROOT / "pyproject.toml")], "is not a file Rulefront reads"),
    (["bench", "nothing"], "unknown bench group"),
    (["match", OUTPOST, "--red", "human"], "human seat cannot play a headless match"),
])
def test_bad_input_is_one_sentence_and_exit_code_2(capsys, args, words):
    code, _, err = run_cli(capsys, *args)
    assert code == 2
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_installed_entry_point_exits_2_without_a_traceback(tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 20)
    proc = subprocess.run([sys.executable, "-m", "game", "map", "check", str(bad)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert "damaged or truncated" in proc.stderr and "Traceback" not in proc.stderr


def test_terminal_play_takes_numbers_undo_redo_and_reprompts_on_nonsense(capsys, tmp_path,
                                                                         monkeypatch):
    save = tmp_path / "save.json"
    lines = iter(["1", "u", "r", "zz", "99", "e", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    code, out, _ = run_cli(capsys, "play", "--text", OUTPOST, "--blue", "random",
                           "--save", str(save), "--seed", "2")
    assert code == 0
    assert "'zz' is not an action here" in out and "'99' is not an action here" in out
    data = json.loads(save.read_text())
    # move 1, undo, redo, end turn, then blue's random reply(s): red is to play again
    assert data["commands"][0]["type"] == "Move" and data["commands"][1]["type"] == "EndTurn"


def test_resume_continues_exactly_where_the_save_left_off(capsys, tmp_path, monkeypatch):
    save = tmp_path / "save.json"
    lines = iter(["e", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    main(["play", "--text", OUTPOST, "--blue", "random", "--save", str(save), "--seed", "9"])
    first = json.loads(save.read_text())
    lines = iter(["q"])
    main(["play", "--text", "--resume", str(save), "--save", str(save)])
    capsys.readouterr()
    again = json.loads(save.read_text())
    assert again["commands"] == first["commands"]
    assert again["rng_states"] == first["rng_states"]


def test_series_without_text_is_one_sentence(capsys) -> None:
    code, _, err = run_cli(capsys, "play", OUTPOST, "--series", "2")
    assert code == 2 and "add --text" in err
