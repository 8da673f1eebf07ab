"""The editor window: clicks on the palette and the board paint the draft, S saves it."""

from __future__ import annotations

import numpy as np
import pytest
from pyglet.window import key

from game.levels.maps import load_map
from game.render.controllers.editor import EditorController, load_draft
from game.render.editor_window import EditorApp
from game.render.offscreen import frame_image, to_array
from tests.helpers import color_of, draw_map

pytestmark = pytest.mark.integration


def test_painting_with_the_mouse_then_saving(window, tmp_path):
    path = draw_map(tmp_path / "m.png", ["D....q", "......", "Q....d"])
    ctrl = EditorController(load_draft(path), path)
    app = EditorApp(window, ctrl)
    try:
        water = next(i for i, e in enumerate(ctrl.entries) if e.name == "water")
        sx, sy = app.screen._swatch_spots()[water]
        app.on_mouse_press(sx + 5, sy + 5, 1, 0)
        assert ctrl.entry.name == "water"
        x, y = app.screen.layout.cell_center(2, 1)
        app.on_mouse_press(int(x), int(y), 1, 0)
        x2, y2 = app.screen.layout.cell_center(3, 1)
        app.on_mouse_drag(int(x2), int(y2), 1, 0, 1, 0)
        image = to_array(frame_image(window, app.screen))
        wet = np.all(image == np.array(color_of("water")), axis=2).sum()
        assert wet > 2 * app.screen.layout.cell  # two painted cells (and the swatch) show
        app.on_key_press(key.S, 0)
        cells = {(x, y): e.name for x, y, e in load_map(path).cells}
        assert cells[(2, 1)] == cells[(3, 1)] == "water"
    finally:
        window.pop_handlers()
