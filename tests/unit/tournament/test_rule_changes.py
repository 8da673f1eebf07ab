"""`rulefront match --games` counts the games in which a rule changed, and each seat's
commands that formed or broke one, as the replays of those games show."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from game.events import RuleBroken, RuleFormed
from game.levels.loader import load_engine
from game.session.replay import read_record

ROOT = Path(__file__).resolve().parents[3]
CROSSING = ROOT / "maps" / "crossing.png"
# Seed 3: random pushes a word in one of its two games there (seed 1 did until blue's words on
# crossing moved back a row; now neither of its games changes a rule)


def _changes_in(replay: Path) -> dict[str, int]:
    """Seat -> commands of it that formed or broke a rule, replayed from the file."""
    record = read_record(replay)
    engine = load_engine(CROSSING, seed=record.seed)
    found: dict[str, int] = {}
    for command in record.commands:
        seat = record.seats[engine.side]
        events = engine.apply(command)
        if any(isinstance(e, RuleFormed | RuleBroken) for e in events):
            found[seat] = found.get(seat, 0) + 1
    return found


def test_a_match_summary_counts_the_games_and_commands_that_changed_a_rule(
        tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "game", "match", str(CROSSING), "--red", "random", "--blue",
         "heuristic", "--seed", "3", "--games", "2", "--json", "--replays", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["rule_changes"]
    per_game = [_changes_in(path) for path in sorted(tmp_path.glob("*.json"))]
    assert summary["games"] == sum(1 for g in per_game if g) >= 1  # random pushed a word here
    for seat in ("random", "heuristic"):
        assert summary["by_seat"][seat] == sum(g.get(seat, 0) for g in per_game)


def test_the_match_table_says_in_how_many_games_the_rules_changed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "game", "match", str(CROSSING), "--red", "random", "--blue",
         "heuristic", "--seed", "3", "--games", "2"],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "rules changed in 1 of 2 games; commands that formed or broke a rule: random " \
        in done.stdout
