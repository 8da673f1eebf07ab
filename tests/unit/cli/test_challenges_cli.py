"""The shipped skirmish challenges from the outside: `rulefront maps` lists them as kind
challenge, `rulefront solve NAME` finds each one's winning line with the words and proves there
is none without them (words=off), the line it saves replays to the player's win through
`rulefront replay`, and a broken challenge file is one sentence and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import MAPS, ROOT
from tests.helpers import draw_cells

CHALLENGES = sorted(p.stem for p in (MAPS / "challenges").glob("*.png"))


def rulefront(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`rulefront ARGS` in a fresh interpreter running this tree."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "game", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd, env=env)


def test_rulefront_maps_lists_every_challenge_as_kind_challenge():
    listed = json.loads(rulefront("maps", "--json").stdout)
    kinds = {row["name"]: row["kind"] for row in listed}
    assert CHALLENGES and all(kinds[name] == "challenge" for name in CHALLENGES)
    assert kinds["duel"] == "match" and kinds["first-steps"] == "level"
    table = rulefront("maps").stdout.splitlines()
    assert table[0].split()[:2] == ["name", "kind"]
    assert any(line.split()[:2] == [CHALLENGES[0], "challenge"] for line in table)


@pytest.mark.parametrize("name", CHALLENGES)
def test_each_challenge_is_solved_with_words_proven_without_and_replays_to_a_win(name, tmp_path):
    saved = tmp_path / f"{name}.json"
    done = rulefront("solve", name, "--json", "--save", str(saved), "--budget", "120")
    assert done.returncode == 0, done.stderr or done.stdout
    report = json.loads(done.stdout)
    assert report["solved"] and report["actions"] >= 1
    assert report["needs_words"] and report["words_off"] == {
        **report["words_off"], "won": False, "exhausted": True}
    replayed = rulefront("replay", str(saved), "--json")
    assert replayed.returncode == 0, replayed.stderr
    verdict = json.loads(replayed.stdout)
    assert verdict["verified"] and verdict["result"]["winner"] == report["side"]


BAD = [
    ("{brief: x, turns: 0}", "'challenge.turns' must be a whole number >= 1"),
    ("{brief: x, side: green}", "'challenge: side' is 'green'"),
    ("{turns: 1}", "'brief' is missing in 'challenge'"),
    ("{brief: x, colour: 3}", "unknown key 'colour' in 'challenge'"),
    ("{brief: x, opponent: nosuch}", "the challenge's opponent 'nosuch' cannot play"),
    ("3", "'challenge' must be a mapping"),
]


@pytest.mark.parametrize(("goal", "said"), BAD)
def test_a_broken_challenge_file_is_one_sentence_and_exit_2(goal, said, tmp_path):
    path = draw_cells(tmp_path / "bad.png", 5, 3, {(0, 0): "red hq", (1, 0): "red duelist",
                                                   (4, 2): "blue hq", (3, 2): "blue sage"})
    path.with_suffix(".yaml").write_text(f"challenge: {goal}\n")
    done = rulefront("solve", "bad.png", cwd=tmp_path)
    assert done.returncode == 2 and not done.stdout
    assert len(done.stderr.strip().splitlines()) == 1 and said in done.stderr, done.stderr


def test_a_challenge_that_words_do_not_decide_is_reported_and_exits_1(tmp_path):
    path = draw_cells(tmp_path / "easy.png", 5, 3, {
        (0, 0): "red hq", (3, 1): "red sage", (4, 2): "blue hq", (4, 1): "blue sage"},
        {"challenge": {"brief": "Win this turn."}, "units": {"heroes": {"sage": {"hp": 6}}}})
    done = rulefront("solve", str(path), "--json", "--save", str(tmp_path / "line.json"))
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["solved"] and report["words_off"]["won"] and not report["needs_words"]
    assert "without pushing a word" in report["note"]


@pytest.mark.parametrize("name", ["skull-field", "no-mending", "high-water"])
def test_the_line_typed_into_the_plain_client_beats_the_real_opponent(name, tmp_path):
    """`rulefront play NAME --text --plain` seats the player against the challenge's opponent
    with its seed: the solver's commands, typed by number, win against the AI seat playing
    for itself in the real client, as the search foresaw."""
    from game.levels.loader import load_engine
    from game.session.challenge import goal_of, solve

    engine = load_engine(MAPS / "challenges" / f"{name}.png")
    goal = goal_of(engine.map)
    found = solve(engine, goal)
    typed = []
    for command in found.commands:
        if engine.side == goal.side:
            typed.append(str(engine.legal_actions().index(command) + 1))
        engine.apply(command)
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    done = subprocess.run([sys.executable, "-m", "game", "play", name, "--text", "--plain"],
                          input="\n".join(typed) + "\n", capture_output=True, text=True,
                          timeout=120, cwd=tmp_path,
                          env={**os.environ, **env, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Challenge: {goal.brief}"
    assert any(line.startswith("game over: red") for line in lines)
    assert lines[-1] == (f"Challenge won in {found.actions} commands: 3 stars (a new best).")
    scores = json.loads((tmp_path / "data" / "rulefront" / "scores.json").read_text())
    assert list(scores[f"challenge: {engine.map.name}"].values()) == [found.actions]


@pytest.mark.parametrize("flag", [["--hint"], ["--moves", "ud"], ["--method", "bfs"]])
def test_a_level_search_flag_on_a_challenge_is_one_sentence_and_exit_2(flag):
    done = rulefront("solve", "flag-day", *flag)
    assert done.returncode == 2 and not done.stdout
    assert done.stderr.strip() == (
        f"rulefront: flag-day: is a skirmish challenge; {flag[0]} applies to puzzle and "
        "descent levels (a challenge takes --budget, --states, --save, --gif and --json).")
