"""`rulefront bench render`: how long frames of the largest shipped map take to draw."""

from __future__ import annotations

from typing import Any

from game import MAPS
from game.bench import median_time
from game.levels.loader import load_engine

SIZE = (1024, 768)
FRAMES = 20  # frames per timed run: one frame is too short for the clock to be fair


def render(repeat: int = 5, **_: Any) -> dict[str, float]:
    """On maps/frontier.png (40x40) at 1024x768, each frame ended by glFinish:
    render.frame_ms: an unchanged frame; render.rebuild_ms: a frame after a state change (a
    hero's move applied or undone, in turn); render.anim_frame_ms: a frame while that move
    slides across the board; render.menu_frame_ms: an unchanged frame of the title menu's New
    game page (duel's thumbnail drawn by its board view); render.menu_key_ms: a key that moves
    the menu's cursor, to the end of the next frame (the page built again)."""
    from game.commands import Move
    from game.render.offscreen import (
        draw_animated_frames,
        draw_changing_frames,
        draw_frames,
        hidden_window,
    )

    window = hidden_window(*SIZE)  # headless before pyglet.gl is imported
    from game.render.screen import Screen

    engine = load_engine(MAPS / "frontier.png")
    move = next(c for c in engine.legal_actions() if isinstance(c, Move))
    try:
        screen = Screen(engine, *SIZE)
        draw_frames(window, screen, FRAMES, False)  # warm up: build, upload, cache glyphs
        steady = median_time(lambda: draw_frames(window, screen, FRAMES, False), repeat) / FRAMES
        draw_changing_frames(window, screen, engine, move, FRAMES)
        changed = median_time(
            lambda: draw_changing_frames(window, screen, engine, move, FRAMES), repeat) / FRAMES
        draw_animated_frames(window, screen, engine, move, FRAMES)
        animated = median_time(
            lambda: draw_animated_frames(window, screen, engine, move, FRAMES), repeat) / FRAMES
        menu_steady, menu_key = menu_frames(window, repeat)
    finally:
        window.close()
    return {"render.frame_ms": steady * 1000, "render.rebuild_ms": changed * 1000,
            "render.anim_frame_ms": animated * 1000, "render.menu_frame_ms": menu_steady * 1000,
            "render.menu_key_ms": menu_key * 1000}


def menu_frames(window: Any, repeat: int) -> tuple[float, float]:
    """Seconds per unchanged frame of the New game page, and per key press and its frame."""
    from pyglet import gl

    from game.menu.pages import new_menu
    from game.render.menu_window import MenuApp
    from game.session.settings import Settings

    app = MenuApp(window, new_menu(0, Settings()), Settings())
    try:
        app.menu.key("RETURN")

        def frames(keys: bool) -> None:
            window.switch_to()
            for _ in range(FRAMES):
                if keys:
                    app.menu.key("DOWN")
                app.on_draw()
                gl.glFinish()

        frames(False)  # warm up: the thumbnail built and uploaded
        steady = median_time(lambda: frames(False), repeat) / FRAMES
        keyed = median_time(lambda: frames(True), repeat) / FRAMES
    finally:
        window.pop_handlers()
    return steady, keyed
