"""Golden playthroughs: a seeded match, every command, its events and the board each round.

Regenerate after an intended rules change, then read the diff:
    rulefront match maps/outpost.png --seed 3 --show > tests/golden/outpost_seed3.txt
"""

from __future__ import annotations

from pathlib import Path

from game import MAPS
from game.cli import main

HERE = Path(__file__).parent


def test_the_seeded_outpost_match_plays_exactly_as_recorded(capsys):
    assert main(["match", str(MAPS / "outpost.png"), "--seed", "3", "--show"]) == 0
    played = capsys.readouterr().out.splitlines()
    golden = (HERE / "outpost_seed3.txt").read_text().splitlines()
    for number, (got, want) in enumerate(zip(played, golden, strict=False), 1):
        assert got == want, f"line {number} differs from the golden playthrough"
    assert len(played) == len(golden)
