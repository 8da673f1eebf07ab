"""Integration tests draw into hidden windows in pyglet's headless (EGL) mode: no X server.

pyglet reads the option when pyglet.window is first imported, so it is set here, before any
test module imports the client.
"""

from __future__ import annotations

import pyglet
import pytest

pyglet.options["headless"] = True

SIZE = (640, 480)


@pytest.fixture(scope="session")
def window():
    from game.render.offscreen import hidden_window

    win = hidden_window(*SIZE)
    yield win
    win.close()
