"""The board view follows the World by what its journal says was touched: a view updated
frame by frame, through moves, pushes, deaths and undos, draws the same things in the same
cells as one built from scratch."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.levels.loader import load_engine
from game.render.offscreen import frame_image
from game.render.screen import Screen

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("map_name", ["crossing", "duel"])
def test_a_view_kept_up_to_date_draws_what_a_fresh_one_draws(window, map_name):
    engine = load_engine(f"maps/{map_name}.png", seed=7)
    width, height = window.get_size()
    kept = Screen(engine, width, height)
    rng = random.Random(7)
    checked = 0
    for step in range(60):
        if engine.history and (engine.over or rng.random() < 0.25):
            engine.retract()
        else:
            engine.apply(rng.choice(engine.legal_actions()))
        kept.invalidate()
        if step % 6:
            continue
        frame_image(window, kept)
        fresh = Screen(engine, width, height)
        frame_image(window, fresh)
        assert drawn(kept) == drawn(fresh), f"step {step}"
        checked += 1
    assert checked == 10


def drawn(screen: Screen) -> dict[int, tuple[tuple[int, int] | None, int]]:
    """Each entity on the board: its cell and how many things draw it."""
    view: Any = screen.view
    return {entity: (view.cell_of.get(entity), len(parts))
            for entity, parts in view.drawn.items() if parts}
