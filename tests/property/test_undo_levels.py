"""Conformance: random legal commands on puzzle and descent levels, undone in full, restore the
exact starting world."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import MAPS, ROOT
from game.levels.loader import load_engine

KEKE = ROOT.parent / "shared" / "benchmarks" / "keke"
LEVELS = [
    (MAPS / "descent" / "tower.txt", None),
    (MAPS / "descent" / "level-06.txt", None),
    (MAPS / "puzzles" / "first-steps.keke", None),
    (MAPS / "puzzles" / "sinking.keke", None),
    (MAPS / "puzzles" / "keke-walks.keke", None),
    (MAPS / "crossing.png", None),  # skirmish with words: pushes and rule changes undo too
]
if (KEKE / "demo_LEVELS.json").exists():
    LEVELS += [(KEKE / "demo_LEVELS.json", "8"), (KEKE / "full_biy_LEVELS.json", "39")]


def play_and_undo(path: Path, level: str | None, seed: int, length: int) -> None:
    engine = load_engine(path, level=level)
    start = engine.world.snapshot()
    rng = random.Random(seed)
    played = 0
    for _ in range(length):
        actions = engine.legal_actions()
        if not actions:
            break
        engine.submit(rng.choice(actions))
        played += 1
    for _ in range(played):
        engine.undo()
    assert engine.world.snapshot() == start


@pytest.mark.parametrize("path, level", LEVELS, ids=[f"{p.stem}{'#' + lv if lv else ''}"
                                                    for p, lv in LEVELS])
def test_random_commands_undone_restore_the_start(path, level):
    for seed in range(5):
        play_and_undo(path, level, seed, 60)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(1, 80))
def test_any_command_sequence_on_a_keke_level_undoes_exactly(seed, length):
    play_and_undo(MAPS / "puzzles" / "keke-walks.keke", None, seed, length)
