"""`words=off`: a built-in AI that never pushes a word tile, played through the real command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from game.engine import Engine
from game.levels.loader import load_engine
from game.session.replay import read_record
from systems.ai import make_ai
from systems.ai.wordless import Wordless, pushes_word

ROOT = Path(__file__).resolve().parents[4]
CROSSING = ROOT / "maps" / "crossing.png"


def _match(tmp_path: Path, red: str, blue: str, seed: int) -> Path:
    replay = tmp_path / f"{seed}.json"
    done = subprocess.run(
        [sys.executable, "-m", "game", "match", str(CROSSING), "--red", red, "--blue", blue,
         "--seed", str(seed), "--replay", str(replay)],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return replay


def _word_pushes(replay: Path, side: str) -> tuple[int, int]:
    """(pushes of a word `side` made, positions where `side` could have pushed one)."""
    record = read_record(replay)
    engine: Engine = load_engine(CROSSING, seed=record.seed)
    made = offered = 0
    for command in record.commands:
        if engine.side == side:
            made += pushes_word(engine, command)
            offered += any(pushes_word(engine, c) for c in engine.legal_actions())
        engine.apply(command)
    return made, offered


@pytest.mark.parametrize("seat", ["random", "heuristic", "minimax:nodes=200", "mcts:sims=4"])
def test_an_ai_with_words_off_never_pushes_a_word_tile(tmp_path: Path, seat: str) -> None:
    wordless = seat + ("," if ":" in seat else ":") + "words=off"
    offered_anywhere = 0
    for seed in (1, 2, 3):
        replay = _match(tmp_path, wordless, "random", seed)
        made, offered = _word_pushes(replay, "red")
        assert made == 0, f"{seat} pushed a word with words=off (seed {seed})"
        offered_anywhere += offered
    assert offered_anywhere > 0  # the games put a word push in its reach: there was a choice


def test_without_words_off_the_same_games_push_words(tmp_path: Path) -> None:
    made = sum(_word_pushes(_match(tmp_path, "random", "random", seed), "red")[0]
               for seed in (1, 2, 3))
    assert made > 0


def test_words_takes_on_or_off_and_says_so_otherwise() -> None:
    assert not isinstance(make_ai("heuristic:words=on"), Wordless)
    assert isinstance(make_ai("mcts:sims=3,words=off"), Wordless)
    done = subprocess.run(
        [sys.executable, "-m", "game", "match", "crossing", "--red", "heuristic:words=maybe"],
        capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert "option words must be on or off, not 'maybe'" in done.stderr


def test_rulefront_ais_lists_words_among_every_built_in_ais_options() -> None:
    done = subprocess.run([sys.executable, "-m", "game", "ais"], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    for name in ("random", "heuristic", "minimax", "mcts"):
        line = next(row for row in done.stdout.splitlines() if row.split()[:1] == [name])
        assert "words" in line
