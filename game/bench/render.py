"""`rulefront bench render`: how long one frame of the largest shipped map takes to draw."""

from __future__ import annotations

from typing import Any

from game import MAPS
from game.bench import median_time
from game.levels.loader import load_engine

SIZE = (1024, 768)
FRAMES = 20  # frames per timed run: one frame is too short for the clock to be fair


def render(repeat: int = 5, **_: Any) -> dict[str, float]:
    """render.frame_ms: redraw of a built scene + glFinish; render.rebuild_ms: a frame after
    a state change (batch rebuilt, then drawn). Both on maps/frontier.png at 1024x768."""
    from game.render.offscreen import draw_frames, hidden_window

    window = hidden_window(*SIZE)  # headless before pyglet.gl is imported
    from game.render.screen import Screen

    try:
        screen = Screen(load_engine(MAPS / "frontier.png"), *SIZE)
        draw_frames(window, screen, FRAMES, False)  # warm up: build, upload, cache glyphs
        steady = median_time(lambda: draw_frames(window, screen, FRAMES, False), repeat) / FRAMES
        changed = median_time(lambda: draw_frames(window, screen, FRAMES, True), repeat) / FRAMES
    finally:
        window.close()
    return {"render.frame_ms": steady * 1000, "render.rebuild_ms": changed * 1000}
