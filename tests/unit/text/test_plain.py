"""The plain client (--plain, and what scripts and pipes get): words by their text, every
command and the opponent's whole turn told in sentences; and no Textual at start-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.levels.loader import load_engine
from game.session.narrate import names, sentences
from tests.helpers import MAPS, run_cli

ROOT = Path(__file__).resolve().parents[3]


def feed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    answers = iter(lines)

    def read(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", read)


def test_plain_shows_words_by_their_text_and_the_opponents_turn_in_sentences(
        capsys, monkeypatch, tmp_path):
    feed(monkeypatch, "e", "q")
    code, out, _ = run_cli(capsys, "play", "--text", "--plain", str(MAPS / "crossing.png"),
                           "--blue", "heuristic", "--save", str(tmp_path / "s.json"))
    assert code == 0
    assert "words: WATER at 6,5; IS at 7,5; STOP at 8,5" in out
    assert "  red ends the turn (round 1)" in out
    blue_lines = [line for line in out.splitlines() if line.startswith("blue (heuristic): ")]
    assert blue_lines[-1] == "blue (heuristic): blue ends the turn (round 1)"
    assert any(" moves to " in line for line in blue_lines)  # a sentence, not a command dump


def test_a_pipe_gets_the_plain_client_with_a_one_line_notice(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "game", "play", "--text", str(MAPS / "outpost.png"),
         "--blue", "random", "--save", str(tmp_path / "s.json")],
        input="e\nq\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "rulefront: not a terminal, so playing in plain text (--plain)."
    assert "red> " in done.stdout and "continue with --resume" in done.stdout
    assert (tmp_path / "s.json").exists()


def test_the_plain_clients_take_the_keys_the_settings_file_binds(tmp_path):
    """The same settings file as the window and the Textual client: end_turn bound to X ends
    the turn when x is typed (and the help says so); undo bound to B undoes a level's move."""
    folder = tmp_path / "config" / "rulefront"
    folder.mkdir(parents=True)
    (folder / "settings.yaml").write_text("keys: {end_turn: X, undo: B}\n")
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    match = subprocess.run(
        [sys.executable, "-m", "game", "play", "--text", str(MAPS / "outpost.png"),
         "--blue", "random", "--save", str(tmp_path / "s.json")],
        input="what\nx\nq\n", capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
    assert match.returncode == 0, match.stderr
    assert "'what' is not an action here: type an action's number, u undo, r redo, e end " \
           "turn, s save, q quit, x end turn, b undo." in match.stdout
    assert "  red ends the turn (round 1)" in match.stdout
    level = subprocess.run([sys.executable, "-m", "game", "play", "first-steps", "--plain"],
                           input="r\nb\nq\n", capture_output=True, text=True, cwd=tmp_path,
                           timeout=120, env=env)
    assert level.returncode == 0, level.stderr
    moves = [line.rsplit("moves ", 1)[1] for line in level.stdout.splitlines()
             if line.startswith("== ")]
    assert moves == ["0", "1", "0"]  # b took the move back; q then quit without asking


def test_an_attack_that_kills_reads_as_one_sentence_naming_the_fallen():
    engine = load_engine(MAPS / "outpost.png", seed=0)
    from game.commands import Attack
    from game.session.match import make_seats
    from systems.ai import Budget

    seats = make_seats(engine, {"red": "heuristic", "blue": "heuristic"}, 0)
    told: list[str] = []
    kill: list[str] = []
    while not engine.over and not kill:
        seat = seats[engine.side]
        assert seat.ai is not None
        command = seat.ai.choose(engine, seat.rng, Budget())
        before = names(engine.world)
        engine.submit(command)
        told = sentences(engine.world, engine.history[-1].events, before)
        if isinstance(command, Attack) and any(" dies" in line for line in told):
            kill = told
    assert kill, "no attack killed anything in a whole heuristic game"
    assert " hits " in kill[0] and "(0 left)" in kill[0]
    assert not any("#" in line for line in kill)  # the fallen are named, not numbered


def test_the_command_line_imports_no_textual_at_start_up():
    code = ("import sys, game.cli; game.cli.build_parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_undo_takes_back_the_ai_turn_and_redo_replays_it_rather_than_a_new_one(
        capsys, monkeypatch, tmp_path):
    feed(monkeypatch, "e", "u", "r", "q")
    save = tmp_path / "s.json"
    code, out, _ = run_cli(capsys, "play", "--text", "--plain", str(MAPS / "crossing.png"),
                           "--blue", "random", "--save", str(save))
    assert code == 0
    from game.session.replay import read_record

    commands = read_record(save).commands
    told = [line for line in out.splitlines() if line.startswith("blue (random): ")]
    assert len(commands) > 2 and commands[0].to_json() == {"type": "EndTurn"}
    assert len(told) == len(commands) - 1  # blue played one turn, told once: redo replayed it


def play_level_plain(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "game", "play", "first-steps", "--plain"],
                          input=stdin, capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_plain_level_asks_before_q_loses_its_moves_and_goes_on_when_told_not_to_quit():
    # a step right, q (asked: Enter keeps playing), a second step, q (asked: y quits)
    done = play_level_plain("r\nq\n\nr\nq\ny\nr\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("quit? this level is not saved (1 move played)") == 1
    assert out.count("quit? this level is not saved (2 moves played)") == 1
    assert "moves 2" in out  # kept playing after the first question
    assert "moves 3" not in out  # quit at the second: the last r was never read


def test_a_plain_level_with_no_move_played_quits_on_q_without_asking():
    done = play_level_plain("q\nr\n")
    assert done.returncode == 0, done.stderr
    assert "quit?" not in done.stdout and "moves 1" not in done.stdout
