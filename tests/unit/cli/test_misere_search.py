"""Misere perfect play searches with its own stack and a work limit: a position thousands of
moves deep is solved (Python's recursion limit was a RecursionError), and a position too big to
search is one sentence (the perfect seat forfeits with it), never a traceback or a hang."""

from __future__ import annotations

import subprocess
import sys
from functools import cache

import pytest

from game import ROOT
from game.errors import UserError
from game.rulesets.octal import perfect


def test_a_position_deeper_than_the_recursion_limit_is_solved():
    # 0.3: take one from a heap, leaving it whole or gone; a heap of n is n moves long.
    depth = sys.getrecursionlimit() * 3
    assert perfect.misere_wins("0.3", (depth,)) == (depth % 2 == 0)


def test_a_position_past_the_work_limit_is_one_sentence(monkeypatch):
    monkeypatch.setattr(perfect, "MISERE_WORK", 2_000)
    monkeypatch.setattr(perfect, "_misere", {})
    monkeypatch.setattr(perfect, "_work", {})
    with pytest.raises(UserError, match=r"misere 0.137 from heaps 60: perfect play needs more "
                                        r"than 2,000 positions"):
        perfect.misere_wins("0.137", (60,))


@pytest.mark.parametrize("heaps,code", [((5, 6, 7), "0.137"), ((3, 3, 4, 9), "0.77")])
def test_the_search_agrees_with_the_definition(heaps, code):
    @cache
    def wins(position: tuple[int, ...]) -> bool:  # misere by the definition, recursively
        game = perfect.parse_code(code)
        options = [perfect.after(list(position), i, c, left) for i, size in enumerate(position)
                   for c, left in perfect.moves_for(game, size)]
        return not options or any(not wins(o) for o in options)

    assert perfect.misere_wins(code, heaps) == wins(heaps)


def test_perfect_play_on_a_huge_misere_position_forfeits_in_one_sentence(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "game", "play", "--octal", "0.137", "--heaps", "128", "--misere",
         "--red", "perfect", "--blue", "random", "--text", "--plain",
         "--save", str(tmp_path / "s.json")],
        capture_output=True, text=True, cwd=ROOT, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode in (0, 2) and "Traceback" not in done.stderr
    assert "needs more than 500,000 positions searched" in done.stdout + done.stderr
