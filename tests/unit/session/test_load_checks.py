"""What a save, a score table or a data folder can do to a run: a save's redo stack is checked
like commands when it loads (a redo out of reach or naming unit 999 refuses the whole save); a
score table goes through the strict reader (a pipe is refused, a repeated key set aside); an
unusable XDG_DATA_HOME is one sentence before any move; the full-screen client whose save
fails says so and exits 2 with the last good save whole; closed stdin ends a plain game."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import ROOT
from game.cli import play as play_cli
from game.errors import UserError
from game.levels.files import temporaries
from game.levels.loader import load_engine
from game.session.match import make_seats
from game.session.replay import read_record, rebuild
from game.session.scores import load_scores, record_score
from game.text.app import RulefrontApp
from tests.helpers import OUTPOST, draw_cells


def rulefront(*args: str, stdin: str | None = "q\n", data: Path,
              **popen: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(data))
    return subprocess.run([sys.executable, "-m", "game", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
                          **popen)  # type: ignore[call-overload]


@pytest.fixture(scope="module")
def save_with_redo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real save: red moves twice and undoes both, so its redo stack holds two moves."""
    folder = tmp_path_factory.mktemp("save")
    save = folder / "save.json"
    done = rulefront("play", OUTPOST, "--text", "--plain", "--blue", "random", "--seed", "5",
                     "--save", str(save), stdin="1\n2\nu\nu\nq\n", data=folder / "data")
    assert done.returncode == 0, done.stderr
    assert len(json.loads(save.read_text())["redo"]) == 2
    return save


@pytest.mark.parametrize("redo,reason", [
    ({"type": "Move", "unit": 999, "x": 2, "y": 2}, "no unit 999"),
    ({"type": "Move", "unit": 7, "x": 0, "y": 14}, "out of reach"),
])
def test_a_redo_the_rules_refuse_refuses_the_whole_save(tmp_path, save_with_redo, redo, reason):
    raw = json.loads(save_with_redo.read_text())
    raw["redo"] = [redo]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(raw))
    before = bad.read_text()
    for args in (("play", "--text", "--plain", "--resume", str(bad)), ("replay", str(bad))):
        done = rulefront(*args, stdin="r\nq\n", data=tmp_path / "data")
        assert done.returncode == 2 and done.stdout == "", done.stdout
        assert done.stderr.count("\n") == 1 and "redo 1" in done.stderr
        assert reason in done.stderr and "refused whole" in done.stderr
    assert bad.read_text() == before and not (tmp_path / "data").exists()  # no autosave


def test_a_legal_redo_stack_loads_and_leaves_the_world_as_the_commands_left_it(save_with_redo):
    record = read_record(save_with_redo)
    engine = rebuild(record, save_with_redo)
    plain = rebuild(type(record)(**{**record.__dict__, "redo": []}), save_with_redo)
    assert engine.world.state_key() == plain.world.state_key()
    assert engine.redo_stack == record.redo and engine.redo() is not None


def test_a_pipe_for_a_score_table_is_refused_not_read(tmp_path):
    table = tmp_path / "scores.json"
    os.mkfifo(table)
    with pytest.raises(UserError, match="not a regular file"):
        load_scores(table)
    assert table.exists()  # not moved aside


@pytest.mark.parametrize("text", ['{"l": {"a": 3}, "l": {"a": 1}}', '{"l": {"a": 1' + "0" * 30 + "}}",
                                  '{"l": {"a": NaN}}', '{"l": {"a": -4}}'])
def test_a_score_table_the_strict_reader_refuses_is_set_aside(tmp_path, capsys, text):
    table = tmp_path / "scores.json"
    table.write_text(text)
    assert load_scores(table) == {}
    err = capsys.readouterr().err
    assert "warning" in err and str(table) in err
    assert [p.name.split("-")[0] for p in tmp_path.iterdir()] == ["scores.json.corrupt"]
    assert record_score("l", "a", 3, table) and load_scores(table) == {"l": {"a": 3}}


@pytest.mark.parametrize("shape", ["file", "pipe"])
def test_an_unusable_data_folder_is_one_sentence_before_any_move(tmp_path, shape):
    data = tmp_path / "data"
    if shape == "file":
        data.write_text("not a folder")
    else:
        (data / "rulefront").mkdir(parents=True)
        os.mkfifo(data / "rulefront" / "autosave.json")
    done = rulefront("play", OUTPOST, "--text", "--plain", "--blue", "random", data=data)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "XDG_DATA_HOME" in done.stderr


def test_closed_stdin_ends_a_plain_game_with_its_save(tmp_path):
    save = tmp_path / "save.json"
    done = _closed_stdin(save, tmp_path / "data")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert read_record(save).seats == {"red": "human", "blue": "random"}


def _closed_stdin(save: Path, data: Path) -> subprocess.CompletedProcess[str]:
    """`rulefront play ... <&-`: the child starts with no file descriptor 0 at all."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(data))
    script = ('import os, sys; os.close(0); os.execv(sys.executable, [sys.executable, "-m", '
              f'"game", "play", {OUTPOST!r}, "--text", "--plain", "--blue", "random", '
              f'"--save", {str(save)!r}])')
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120, stdin=subprocess.DEVNULL)


def test_a_full_disk_in_the_full_screen_client_is_one_sentence_and_keeps_the_last_save(
        tmp_path, monkeypatch, capsys):
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (3, 1): "red bulwark", (8, 8): "blue bulwark"}
    engine = load_engine(draw_cells(tmp_path / "t.png", 10, 10, cells, {"name": "t"}))
    seats = make_seats(engine, {"red": "human", "blue": "random"}, 0)
    save = tmp_path / "save.json"
    save.write_text("the last good save")
    real_replace = os.replace

    def full(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    def run_headless(app: RulefrontApp) -> None:
        async def scenario() -> None:
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                monkeypatch.setattr(os, "replace", full)
                await pilot.press("enter", "right", "enter")  # a move: its autosave fails
                await pilot.pause()
        asyncio.run(scenario())

    monkeypatch.setattr(RulefrontApp, "run", run_headless)
    with pytest.raises(UserError) as refused:
        play_cli.run_app(engine, seats, 0, save)
    monkeypatch.setattr(os, "replace", real_replace)
    sentence = str(refused.value)
    assert "disk is full" in sentence and "holds the last move saved" in sentence
    assert "\n" not in sentence and "saved to" not in capsys.readouterr().out
    assert save.read_text() == "the last good save" and temporaries(save) == []
