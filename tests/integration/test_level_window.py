"""Puzzle and descent levels played to a win through the real key handlers of a hidden window
(their golden pictures are in test_views_golden.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pyglet.window import key

from game.levels.loader import load_engine
from game.render import colors
from game.render.app import App
from game.render.controllers.level import LevelController
from game.render.offscreen import frame_image, to_array

pytestmark = pytest.mark.integration

GOLDEN = Path(__file__).parent.parent / "golden"
FIRST = Path("maps/puzzles/first-steps.keke")


@pytest.fixture
def app(window):
    ctrl = LevelController(load_engine(FIRST), FIRST, clock=lambda: 0.0)
    app = App(window, ctrl)
    yield app
    window.pop_handlers()


def frame(app: App) -> np.ndarray:
    app.refresh()
    return to_array(frame_image(app.window, app.screen))


def modal_border(image: np.ndarray) -> int:
    """Pixels of the modal box's yellow border (the win screen)."""
    return int((np.abs(image.astype(int) - np.array(colors.SELECT)).max(axis=2) <= 12).sum())


def test_a_puzzle_is_stepped_to_a_win_and_n_starts_the_next_level(app):
    before = modal_border(frame(app))
    for _ in range(5):
        app.on_key_press(key.RIGHT, 0)
        frame(app)
    assert app.controller.won
    assert modal_border(frame(app)) > before + 500  # the win box is on screen
    app.on_key_press(key.N, 0)
    shown = frame(app)
    assert app.controller.path != FIRST and app.controller.moves == 0
    assert modal_border(shown) < before + 500



def test_moving_the_mouse_over_baba_shows_its_properties_in_the_panel(app):
    frame(app)
    world = app.controller.engine.world
    from components import Kind, Position

    baba = next((p.x, p.y) for e, (p, k) in world.query(Position, Kind) if k.name == "baba")
    cx, cy = app.screen.layout.cell_center(*baba)
    app.on_mouse_motion(int(cx), int(cy), 0, 0)
    frame(app)
    assert any(line.endswith(": YOU") for line in app.screen.ui.tooltip)
    assert any(text.endswith(": YOU") for text, *_ in app.screen.labels)  # drawn in the panel
    app.on_mouse_motion(1, 1, 0, 0)  # off the board
    frame(app)
    assert app.screen.ui.tooltip == ()
