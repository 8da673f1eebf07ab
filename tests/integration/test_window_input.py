"""Scripted clicks and keys through the real window handlers, drawn in a hidden window."""

from __future__ import annotations

import numpy as np
import pyglet
import pytest
from pyglet.window import key

from components import Health, Position
from game.levels.loader import load_engine
from game.render import colors
from game.render.app import App
from game.render.controllers.match import Controller
from game.render.offscreen import frame_image, to_array
from game.session.match import make_seats
from tests.helpers import draw_map

pytestmark = pytest.mark.integration

ROWS = ["D.....", "..d...", "......", "Q....q"]


@pytest.fixture
def app(window, tmp_path):
    engine = load_engine(draw_map(tmp_path / "tiny.png", ROWS))
    seats = make_seats(engine, {"red": "human", "blue": "human"}, 0)
    app = App(window, Controller(engine, seats, 0, tmp_path / "save.json"))
    yield app
    window.pop_handlers()


def click(app: App, cell: tuple[int, int]) -> None:
    app.refresh()
    x, y = app.screen.layout.cell_center(*cell)
    app.on_mouse_press(int(x), int(y), 1, 0)


def press(app: App, symbol: int, modifiers: int = 0) -> None:
    app.on_key_press(symbol, modifiers)


def frame(app: App) -> np.ndarray:
    app.refresh()
    return to_array(frame_image(app.window, app.screen))


def count_near(image: np.ndarray, color: tuple[int, int, int], tolerance: int = 12) -> int:
    return int((np.abs(image.astype(int) - np.array(color)).max(axis=2) <= tolerance).sum())


def test_select_move_attack_undo_and_end_turn(app):
    world = app.controller.engine.world
    red, blue = world.at(0, 0)[0], world.at(2, 1)[0]
    click(app, (0, 0))
    assert app.controller.selected == red
    shown = frame(app)
    assert count_near(shown, colors.SELECT) > 0  # the selection box is drawn
    click(app, (1, 1))
    assert world.get(red, Position) == Position(1, 1)
    click(app, (2, 1))
    assert world.get(blue, Health).hp < world.get(blue, Health).max_hp
    press(app, key.Z, key.MOD_CTRL)
    assert world.get(blue, Health).hp == world.get(blue, Health).max_hp
    press(app, key.E)
    assert app.controller.engine.side == "blue"


def test_the_hand_over_screen_hides_every_unit(app):
    before = frame(app)
    red, blue = colors.side_color("red"), colors.side_color("blue")
    assert count_near(before, red) > 0 and count_near(before, blue) > 0
    press(app, key.SPACE)
    press(app, key.SPACE)  # yes, end it with the duelist unused
    hidden = frame(app)
    assert count_near(hidden, red) == 0 and count_near(hidden, blue) == 0
    click(app, (3, 3))
    assert count_near(frame(app), blue) > 0


def test_a_resized_window_still_maps_clicks_to_cells(app):
    app.on_resize(500, 400)
    click(app, (0, 0))
    assert app.controller.selected is not None
    app.on_resize(*app.window.get_size())


def test_hovering_an_enemy_with_a_hero_selected_previews_the_attack_in_the_panel(app):
    click(app, (0, 0))
    click(app, (1, 1))  # next to the blue duelist at (2, 1); the hero stays selected
    before = frame(app)
    x, y = app.screen.layout.cell_center(2, 1)
    app.on_mouse_motion(int(x), int(y), 0, 0)
    assert app.controller.view().tooltip[0].startswith("hit duelist")
    after = frame(app)
    panel = app.screen.layout.panel_x
    assert count_near(after[:, panel:], colors.SELECT) > count_near(before[:, panel:],
                                                                     colors.SELECT)


def test_page_up_scrolls_the_log_back_to_its_first_row_and_no_further(app):
    ctrl = app.controller
    for _ in range(12):  # each side ends its turn: a heading and a line a turn
        press(app, key.E)
        if ctrl.confirming is not None:
            press(app, key.E)
        app.on_mouse_press(5, 5, 1, 0)  # past the hand-over screen
    app.on_draw()  # a frame, as the window draws it: the screen tells how far the log goes
    most = app.screen.log_scroll_most
    assert most > 0  # more rows than the panel shows
    for _ in range(20):
        press(app, key.PAGEUP)
    assert ctrl.log_scroll == most
    frame(app)
    assert "Round 1 - red" in [label.text for label in app.screen.labels.values()]


def test_the_help_box_is_as_wide_as_its_widest_line(app):
    """H's box held its last line ('arrows / right-drag pan    Page Up / Down or wheel on the
    log') only in part: the box was 460 pixels whatever its text."""
    press(app, key.H)
    frame(app)
    box = app.screen.modal[1]
    lines = [d for d in app.screen.modal if isinstance(d, pyglet.text.Label)]
    assert len(lines) > 5
    for line in lines:
        assert box.x <= line.x - line.content_width / 2
        assert line.x + line.content_width / 2 <= box.x + box.width
