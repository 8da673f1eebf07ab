"""Property: any sequence of legal commands, undone in full, restores the exact world."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.levels.loader import load_engine
from game.levels.maps import MAPS

OUTPOST = MAPS / "outpost.png"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=120),
       undo_points=st.lists(st.integers(min_value=0, max_value=5), max_size=120))
def test_apply_undo_redo_in_any_order_is_exact(choices, undo_points):
    engine = load_engine(OUTPOST, seed=3)
    start = engine.world.snapshot()
    for i, choice in enumerate(choices):
        actions = engine.legal_actions()
        if not actions:
            break
        before = engine.world.snapshot()
        engine.submit(actions[choice % len(actions)])
        back = undo_points[i] if i < len(undo_points) else 0
        if back == 1:  # undo then redo lands on the same world
            after = engine.world.snapshot()
            engine.undo()
            assert engine.world.snapshot() == before
            engine.redo()
            assert engine.world.snapshot() == after
    while engine.history:
        engine.undo()
    assert engine.world.snapshot() == start


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_an_illegal_command_never_changes_the_world(choices):
    from game.commands import Attack, Move

    engine = load_engine(OUTPOST, seed=3)
    for choice in choices:
        actions = engine.legal_actions()
        if not actions:
            break
        engine.submit(actions[choice % len(actions)])
        before = engine.world.snapshot()
        for bad in (Move(choice % 50, choice % 13, choice % 11), Attack(choice % 50, choice % 40)):
            if engine.why_illegal(bad) is not None:
                assert not engine.submit(bad).ok
                assert engine.world.snapshot() == before
