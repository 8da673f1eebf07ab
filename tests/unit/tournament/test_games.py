"""Multi-game matches and tournaments: swapped pairs, determinism, summaries, progress."""

from __future__ import annotations

import pytest

from game.tournament.backends import run_games
from game.tournament.games import (
    GameOutcome,
    round_robin,
    summarize_match,
    summarize_tournament,
    swapped_pairs,
)
from systems.ai import Budget
from tests.helpers import OUTPOST


def outcome(index: int, red: str, blue: str, winner: str) -> GameOutcome:
    return GameOutcome(index, "m.png", red, blue, index // 2, winner, "", 10, 100,
                       {"red": 0.1, "blue": 0.2}, {"red": 50, "blue": 50})


def test_games_come_in_pairs_with_sides_swapped_on_the_same_seed() -> None:
    specs = swapped_pairs("m.png", "a", "b", 5, seed=7, budget=Budget())
    assert [(s.red, s.blue, s.seed) for s in specs] == [
        ("a", "b", 7), ("b", "a", 7), ("a", "b", 8), ("b", "a", 8), ("a", "b", 9)]


def test_a_round_robin_plays_every_pair_on_every_map() -> None:
    specs = round_robin(["x", "y", "z"], ["m1", "m2"], 2, 0, Budget())
    pairs = {(s.map, frozenset((s.red, s.blue))) for s in specs}
    assert len(specs) == 12 and len(pairs) == 6
    assert [s.index for s in specs] == list(range(12))


def test_the_same_seed_gives_the_same_games_whatever_the_number_of_workers() -> None:
    specs = swapped_pairs(OUTPOST, "heuristic", "random", 4, seed=3, budget=Budget())
    one = run_games(specs, workers=1)
    two = run_games(specs, workers=2)
    again = run_games(specs, workers=1)
    key = [(o.winner, o.reason, o.rounds, o.commands) for o in one]
    assert key == [(o.winner, o.reason, o.rounds, o.commands) for o in two]
    assert key == [(o.winner, o.reason, o.rounds, o.commands) for o in again]


def test_the_match_summary_counts_per_ai_and_per_side() -> None:
    games = [outcome(0, "a", "b", "red"), outcome(1, "b", "a", "red"),
             outcome(2, "a", "b", "draw"), outcome(3, "b", "a", "blue")]
    summary = summarize_match(games, "a", "b")
    a = summary["results"]["a"]
    assert (a["wins"], a["draws"], a["losses"], a["score"]) == (2, 1, 1, 0.625)
    assert (a["as_red"]["wins"], a["as_red"]["draws"]) == (1, 1)
    assert (a["as_blue"]["wins"], a["as_blue"]["losses"]) == (1, 1)
    assert summary["results"]["b"]["score"] == 0.375
    assert summary["sides"] == {"red": 0.625, "blue": 0.375}
    assert summary["elo"]["difference"] == pytest.approx(88.7, abs=0.1)
    assert a["think_ms_per_action"] == pytest.approx(1000 * (0.1 + 0.2 + 0.1 + 0.2) / 200)


def test_the_tournament_summary_has_a_crosstable_and_centred_ratings() -> None:
    games = [outcome(0, "a", "b", "red"), outcome(1, "b", "a", "blue"),
             outcome(2, "b", "c", "red"), outcome(3, "c", "b", "draw"),
             outcome(4, "a", "c", "blue"), outcome(5, "c", "a", "blue")]
    summary = summarize_tournament(games, ["a", "b", "c"])
    assert summary["crosstable"]["a"] == {"b": 1.0, "c": 0.5}
    assert summary["crosstable"]["b"]["c"] == 0.75
    assert sum(r["elo"] for r in summary["ratings"]) == pytest.approx(0.0, abs=0.5)
    assert summary["ratings"][0]["name"] == "a"
