"""The editor window: clicks on the palette and the board paint the draft, S saves it."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from pyglet.window import key

from game import ROOT
from game.levels.maps import load_map
from game.render.controllers.editor import EditorController, load_draft
from game.render.editor_window import ASKING, EditorApp
from game.render.offscreen import frame_image, to_array
from tests.helpers import color_of, draw_map

pytestmark = pytest.mark.integration


def test_painting_with_the_mouse_then_saving(window, tmp_path):
    path = draw_map(tmp_path / "m.png", ["D....q", "......", "Q....d"])
    ctrl = EditorController(load_draft(path), path)
    app = EditorApp(window, ctrl)
    try:
        water = next(i for i, e in enumerate(ctrl.entries) if e.name == "water")
        sx, sy = app.screen.plan.spot(water).center
        app.on_mouse_press(sx, sy, 1, 0)
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


DRIVE_THE_EDITOR = """
import gc, sys
import pyglet
pyglet.options["headless"] = True  # what RULEFRONT_HEADLESS does, before pyglet.window loads
from pyglet.window import key
from game.cli import main
from game.levels.maps import load_map
from game.render.controllers.editor import EditorController, load_draft
from game.render.editor_window import EditorScreen

path = sys.argv[1]

def play(_dt):
    gc.collect()
    window = next(w for w in pyglet.app.windows if w.caption.startswith("Rulefront editor"))
    # The screen's geometry, from a controller of our own on the same draft.
    screen = EditorScreen(EditorController(load_draft(path), path), window.width, window.height)
    wall = next(i for i, e in enumerate(screen.ctrl.entries) if e.name == "wall")
    sx, sy = screen.plan.spot(wall).center
    window.dispatch_event("on_mouse_press", sx, sy, 1, 0)
    x, y = screen.layout.cell_center(1, 1)
    window.dispatch_event("on_mouse_press", int(x), int(y), 1, 0)
    window.dispatch_event("on_key_press", key.S, 0)
    print({(x, y): e.name for x, y, e in load_map(path).cells}.get((1, 1)))
    window.close()

pyglet.clock.schedule_once(play, 0.2)
sys.exit(main(["edit", path, "--quit-after", "5"]))
"""


def test_the_editor_the_command_opens_takes_clicks_and_keys(tmp_path):
    """Through `rulefront edit` itself, in a process of its own with pyglet's real event loop:
    its window must keep its handlers once the garbage collector has run (pyglet holds them
    weakly; a lost EditorApp was a black window that ignored every key)."""
    path = draw_map(tmp_path / "m.png", ["D....q", "......", "Q....d"])
    done = subprocess.run([sys.executable, "-c", DRIVE_THE_EDITOR, str(path)], cwd=ROOT,
                          env={**os.environ, "RULEFRONT_HEADLESS": "1"}, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["wall"]  # painted by the click, written by S


CLOSE_WITH_UNSAVED_WORK = """
import sys
import pyglet
pyglet.options["headless"] = True
from pyglet.window import key
from game.cli import main
from game.render.controllers.editor import EditorController, load_draft
from game.render.editor_window import EditorScreen

path = sys.argv[1]

def play(_dt):
    window = next(w for w in pyglet.app.windows if w.caption.startswith("Rulefront editor"))
    screen = EditorScreen(EditorController(load_draft(path), path), window.width, window.height)
    x, y = screen.layout.cell_center(1, 1)
    window.dispatch_event("on_mouse_press", int(x), int(y), 1, 0)  # a rock: unsaved work
    window.dispatch_event("on_close")  # the window's close button
    print("asked" if window.editor_app.ctrl.asking and window in pyglet.app.windows
          else "closed")
    window.dispatch_event("on_key_press", key.D, 0)  # quit without saving
    print("open" if window in pyglet.app.windows else "closed")

pyglet.clock.schedule_once(play, 0.2)
sys.exit(main(["edit", path, "--quit-after", "5"]))
"""


def test_the_close_button_asks_before_unsaved_work_is_lost(tmp_path):
    path = draw_map(tmp_path / "m.png", ["D....q", "......", "Q....d"])
    before = path.read_bytes()
    done = subprocess.run([sys.executable, "-c", CLOSE_WITH_UNSAVED_WORK, str(path)], cwd=ROOT,
                          env={**os.environ, "RULEFRONT_HEADLESS": "1"}, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["asked", "closed"]
    assert path.read_bytes() == before  # D quits without saving


def test_a_long_refusal_in_the_panel_keeps_its_words_whole_inside_the_window(window, tmp_path):
    """'... the folder /tmp/ro is no' / 't writable ...' ran past the window's right edge."""
    path = draw_map(tmp_path / "m.png", ["D....q", "......", "Q....d"])
    ctrl = EditorController(load_draft(path), path)
    app = EditorApp(window, ctrl)
    try:
        ctrl.message = ("not saved: /tmp/stranger/ro3/duel.png: cannot be written: the folder "
                        "/tmp/stranger/ro3 is not writable; write to a folder you own.")
        frame_image(window, app.screen)
        rows = [label for label in app.screen.keep if getattr(label, "text", None)
                and tuple(label.color[:3]) == ASKING]
        assert len(rows) == 4
        assert " ".join(label.text for label in rows) == ctrl.message
        assert all(label.x + label.content_width <= window.width for label in rows)
    finally:
        window.pop_handlers()
