"""`rulefront bench render`: how long one frame of the largest shipped map takes to draw."""

from __future__ import annotations

from typing import Any

from game.bench import median_time
from game.levels.loader import load_engine
from game.levels.maps import MAPS

SIZE = (1024, 768)
FRAMES = 20  # frames per timed run: one frame is too short for the clock to be fair


def render(repeat: int = 5, **_: Any) -> dict[str, float]:
    """render.frame_ms: redraw of a built scene + glFinish; render.rebuild_ms: a frame after
    a state change (batch rebuilt, then drawn). Both on maps/frontier.png at 1024x768."""
    from game.render.offscreen import hidden_window

    window = hidden_window(*SIZE)  # headless before pyglet.gl is imported below
    from pyglet import gl

    from game.render.screen import Screen

    try:
        screen = Screen(load_engine(MAPS / "frontier.png"), *SIZE)
        window.switch_to()

        def frames(rebuild: bool) -> None:
            for _ in range(FRAMES):
                if rebuild:
                    screen.invalidate()
                window.clear()
                screen.draw()
                gl.glFinish()

        frames(rebuild=False)  # warm up: build the batch, upload vertices, cache glyphs
        steady = median_time(lambda: frames(False), repeat) / FRAMES
        changed = median_time(lambda: frames(True), repeat) / FRAMES
    finally:
        window.close()
    return {"render.frame_ms": steady * 1000, "render.rebuild_ms": changed * 1000}
