"""The pyglet client: the only package that imports pyglet.

Modules here that import pyglet at top level (views, screen, offscreen, app, bench) are only
imported when a picture or a window is wanted; `colors`, `layout`, `panels`, `uiview` and the
controllers are plain Python and unit-testable without a display.
"""

from __future__ import annotations


def use_headless() -> None:
    """Switch pyglet to EGL offscreen mode; must run before pyglet.window or pyglet.gl import."""
    import pyglet

    pyglet.options["headless"] = True
