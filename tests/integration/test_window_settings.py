"""The window honours the player's settings file, through `rulefront play` itself in a process
of its own (pyglet's real event loop, headless): a rebound key acts and the old one does not,
the labels name it, the colour-blind palette paints the sides, and each command's events play
their sounds."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from game import ROOT

pytestmark = pytest.mark.integration

DRIVE_THE_WINDOW = """
import json, sys
import numpy as np
import pyglet
pyglet.options["headless"] = True
from pyglet.window import key
from game.cli import main
from game.render.offscreen import to_array

seen = {"ticks": 0}

def app_of(window):
    for frame in window._event_stack:
        handler = frame.get("on_key_press")
        method = handler() if handler is not None else None
        if method is not None and hasattr(method.__self__, "sounds"):
            return method.__self__

def step(dt):
    window = next(iter(pyglet.app.windows))
    app = app_of(window)
    engine = app.controller.engine
    seen["ticks"] += 1
    if seen["ticks"] == 1:
        window.switch_to()
        app.on_draw()
        frame = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        pixels = to_array(frame).astype(int)
        orange = (np.abs(pixels - np.array([230, 159, 0])).max(axis=2) <= 8).sum()
        seen["buttons"] = [label for _, label in app.controller.view().buttons]
        window.dispatch_event("on_key_press", key.H, 0)
        seen["help"] = list(app.controller.view().modal)
        window.dispatch_event("on_key_press", key.H, 0)
        window.dispatch_event("on_key_press", key.E, 0)  # end turn's old key: unbound now
        seen["after_e"] = len(engine.history)
        window.dispatch_event("on_key_press", key.X, 0)  # the key bound to end_turn...
        seen["asked"] = list(app.controller.view().modal)
        window.dispatch_event("on_key_press", key.X, 0)  # ...asks (no hero has acted): yes
        seen["after_x"] = [c.to_json() for c in (e.command for e in engine.history)]
        seen["orange"] = int(orange)
    elif "move" in app.sounds.played or seen["ticks"] > 400:
        print(json.dumps({**seen, "played": app.sounds.played, "sound": app.sounds.enabled}))
        pyglet.clock.unschedule(step)
        window.close()

pyglet.clock.schedule_interval(step, 0.05)
sys.exit(main(["play", "outpost", "--blue", "random", "--save", sys.argv[1],
               "--quit-after", "60"]))
"""


def test_the_window_takes_keys_palette_and_sound_from_the_settings_file(tmp_path):
    config = tmp_path / "config" / "rulefront"
    config.mkdir(parents=True)
    (config / "settings.yaml").write_text("keys: {end_turn: X}\npalette: colour-blind\n"
                                          "speed: 4.0\n")
    env = {**os.environ, "RULEFRONT_HEADLESS": "1", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", DRIVE_THE_WINDOW, str(tmp_path / "s.json")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(next(line for line in reversed(done.stdout.splitlines())
                           if line.startswith("{")))
    assert seen["after_e"] == 0  # E no longer ends the turn
    assert seen["after_x"] == [{"type": "EndTurn"}]  # X does
    assert seen["buttons"] == ["End turn (X)"]  # and the labels say X, nowhere E
    assert "U / Ctrl+Z undo    Y redo    X / Space end turn" in seen["help"]
    assert seen["asked"][-1].startswith("X / Enter / End turn again: end it")
    assert seen["orange"] > 50  # red's units in the colour-blind palette's orange
    assert seen["sound"] and "move" in seen["played"]  # blue's moves made their sound


DRIVE_THE_MENU = """
import json, sys
import pyglet
pyglet.options["headless"] = True
from pyglet.window import key
from game.cli import main

steps = iter(range(1000))
seen = {}
KEYS = {"d": key.DOWN, "u": key.UP, "l": key.LEFT, "r": key.RIGHT}

def top(window):
    return window._event_stack[0]["on_draw"]().__self__

def press(window, *symbols):
    for symbol in symbols:
        window.dispatch_event("on_key_press", symbol, 0)

def step(dt):
    window = next(iter(pyglet.app.windows))
    i = next(steps)
    if i == 0:
        press(window, *[key.DOWN] * 4, key.RETURN)  # Descent
        seen["page"] = top(window).menu.view().title
        press(window, key.RETURN)  # its first level
    elif i == 1:
        controller = top(window).controller
        seen["level"] = controller.engine.map.name
        press(window, *(KEYS[m] for m in sys.argv[1]))
        seen["won"] = controller.won
        press(window, key.Q)  # back to the menu
    elif i == 3:
        view = top(window).menu.view()
        seen["back"] = view.title
        seen["row"] = [view.rows[0].detail, view.rows[0].stars]
        print(json.dumps(seen))
        window.close()

pyglet.clock.schedule_interval(step, 0.2)
sys.exit(main(["play", "--quit-after", "60"]))
"""


def test_a_level_won_from_the_menu_shows_its_stars_on_the_way_back(tmp_path):
    """`rulefront play`, Descent, its first level played by key presses to a win, Q: the
    level select shows the moves and the stars, kept in the score table under the settings'
    player name."""
    from game import MAPS
    from game.data import load_yaml

    solution = load_yaml(MAPS / "descent" / "level-01.yaml")["solution"]
    env = {**os.environ, "RULEFRONT_HEADLESS": "1", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", DRIVE_THE_MENU, solution], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(next(line for line in reversed(done.stdout.splitlines())
                           if line.startswith("{")))
    assert seen["page"] == "Descent" and seen["level"] == "level 1" and seen["won"]
    assert seen["back"] == "Descent"
    assert seen["row"] == [f"{len(solution)} moves", 3]
    scores = json.loads((tmp_path / "data" / "rulefront" / "scores.json").read_text())
    assert [{"player": len(solution)}] == [row for name, row in scores.items()
                                           if name.endswith("level-01.txt")]
