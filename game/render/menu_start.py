"""`rulefront play` with no map: the title menu in a window, opened before pyglet's drawing
modules load (they need a display to import), so a broken settings file or a missing display
is one sentence (exit 2), not a traceback."""

from __future__ import annotations

from game.render.app import open_window, player_settings
from game.render.layout import parse_size


def run_menu_window(seed: int = 0, size: str = "1024x768", fps: int = 30,
                    quit_after: float | None = None, animate: bool = True) -> int:
    """The title menu, and whatever it starts, in one window until it is closed."""
    settings = player_settings()
    width, height = parse_size(size)
    window = open_window(width, height, "Rulefront")
    from game.render.menu_window import run_menu_in

    return run_menu_in(window, seed, settings, fps, quit_after, animate)
