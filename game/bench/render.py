"""`rulefront bench render`: how long frames of the largest shipped map take to draw, and how
long a key takes to show on the screen, with nobody thinking and while an AI thinks."""

from __future__ import annotations

import statistics
import time
from typing import Any

from game import MAPS
from game.bench import median_time
from game.levels.loader import load_engine

SIZE = (1024, 768)
FRAMES = 20  # frames per timed run: one frame is too short for the clock to be fair
THINKER = "minimax:think=0.5"  # blue in the key-while-thinking figure: about a second a turn
INTO_THINK = 0.2  # seconds into blue's think when the key is pressed


def render(repeat: int = 5, **_: Any) -> dict[str, float]:
    """On maps/frontier.png (40x40) at 1024x768, each frame ended by glFinish:
    render.frame_ms: an unchanged frame; render.rebuild_ms: a frame after a state change (a
    hero's move applied or undone, in turn); render.anim_frame_ms: a frame while that move
    slides across the board; render.menu_frame_ms: an unchanged frame of the title menu's New
    game page (duel's thumbnail drawn by its board view); render.menu_key_ms: a key that moves
    the menu's cursor, to the end of the next frame (the page built again); and the
    key-to-redraw figures of `key_to_redraw`."""
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
        keys = key_to_redraw(window, repeat)
    finally:
        window.close()
    return {"render.frame_ms": steady * 1000, "render.rebuild_ms": changed * 1000,
            "render.anim_frame_ms": animated * 1000, "render.menu_frame_ms": menu_steady * 1000,
            "render.menu_key_ms": menu_key * 1000, **keys}


def menu_frames(window: Any, repeat: int) -> tuple[float, float]:
    """Seconds per unchanged frame of the New game page, and per key press and its frame."""
    from game.render.offscreen import draw_menu_frames, menu_app

    app = menu_app(window)
    try:
        app.menu.key("RETURN")
        draw_menu_frames(window, app, FRAMES, None)  # warm up: the thumbnail built, uploaded
        steady = median_time(lambda: draw_menu_frames(window, app, FRAMES, None),
                             repeat) / FRAMES
        keyed = median_time(lambda: draw_menu_frames(window, app, FRAMES, "DOWN"),
                            repeat) / FRAMES
    finally:
        window.pop_handlers()
    return steady, keyed


def key_to_redraw(window: Any, repeat: int) -> dict[str, float]:
    """render.key_to_redraw_ms: H pressed through the window's key handler until the frame
    with the help box is drawn (glFinish), red (a human) to play on outpost;
    render.key_to_redraw_thinking_ms: the same, timed from a key pressed INTO_THINK seconds
    after red ended its turn, while blue (THINKER) works out its first action: the event
    loop's AI tick runs first, as pyglet's clock runs it between events (a client that
    thinks on the UI thread thinks there, and the key waits for the rest of the think)."""
    from game.render.app import App
    from game.render.controllers.match import Controller
    from game.render.offscreen import press_and_draw
    from game.session.match import make_seats

    idle: list[float] = []
    thinking: list[float] = []
    for _ in range(repeat):
        for samples, busy in ((idle, False), (thinking, True)):
            engine = load_engine(MAPS / "outpost.png")
            seats = make_seats(engine, {"red": "human", "blue": THINKER}, 0)
            ctrl = Controller(engine, seats, 0, None)
            app = App(window, ctrl, False)
            try:
                time.sleep(0.5)  # the thinking process started (game/session/think.py)
                window.switch_to()
                app.on_draw()
                if busy:
                    ctrl.key("E")
                    ctrl.key("E")  # the first asks: no hero has acted
                start = time.perf_counter()
                if busy:
                    app.tick()
                    start += INTO_THINK  # the key comes then: handled once the loop is free
                    time.sleep(max(0.0, start - time.perf_counter()))
                press_and_draw(window, app, "H")
                samples.append(time.perf_counter() - start)
                assert ctrl.show_help
            finally:
                window.pop_handlers()
                close = getattr(ctrl, "close", None)
                if callable(close):
                    close()
    return {"render.key_to_redraw_ms": statistics.median(idle) * 1000,
            "render.key_to_redraw_thinking_ms": statistics.median(thinking) * 1000}
