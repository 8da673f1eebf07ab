"""Headless matches: seats, seeds and the games they give."""

from __future__ import annotations

from game.levels.maps import DEFAULT_MAP
from game.session.match import run_match


def test_the_same_seed_gives_the_same_match():

    _, first = run_match(DEFAULT_MAP, {"red": "random", "blue": "random"}, seed=11)
    _, second = run_match(DEFAULT_MAP, {"red": "random", "blue": "random"}, seed=11)
    _, other = run_match(DEFAULT_MAP, {"red": "random", "blue": "random"}, seed=12)
    assert first.commands == second.commands and first.winner == second.winner
    assert first.commands != other.commands
