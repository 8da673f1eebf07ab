"""Series mode: a running tally across games, and the loser moves first in the next one."""

from __future__ import annotations

import io

from game.text.series import run_series
from tests.helpers import OUTPOST


def no_input(prompt: str) -> str:
    raise EOFError


def test_the_loser_moves_first_in_the_next_game_and_the_tally_adds_up(tmp_path) -> None:
    out = io.StringIO()
    players = run_series(OUTPOST, "heuristic", "random", 3, 0, tmp_path / "s.json", no_input, out)
    text = out.getvalue()
    assert [(p.wins, p.draws, p.losses) for p in players] == [(3, 0, 0), (0, 0, 3)]
    assert "game 2 of 3: player 2 (random) is red and moves first" in text
    assert "player 1 (heuristic) wins the series, 3 to 0" in text


def test_a_human_who_quits_stops_the_series_with_the_tally_so_far(tmp_path) -> None:
    out = io.StringIO()
    players = run_series(OUTPOST, "human", "random", 3, 0, tmp_path / "s.json", no_input, out)
    assert all(p.wins + p.draws + p.losses == 0 for p in players)
    assert "series stopped after 0 games" in out.getvalue()
