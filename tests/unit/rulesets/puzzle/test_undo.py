"""Puzzle undo as a property: on a level where KEKE IS MOVE walks things every turn, any
sequence of legal commands, undone in full, restores the exact starting world."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game import MAPS
from game.levels.loader import load_engine
from tests.helpers import random_playout, undo_all


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), length=st.integers(1, 80))
def test_any_command_sequence_on_a_keke_level_undoes_exactly(seed, length):
    engine = load_engine(MAPS / "puzzles" / "keke-walks.keke")
    start = engine.world.snapshot()
    random_playout(engine, random.Random(seed), length)
    undo_all(engine)
    assert engine.world.snapshot() == start
