"""`rulefront bench text`: how fast the terminal client answers a key on the 40x40 map.

key_to_redraw_ms is the median time from an arrow key pressed through Textual's pilot until the
app has handled it (cursor, board, panel and status updated) and the whole screen has been
composed into the segments a terminal is sent, on frontier (40x40) in an 80x24 terminal, with a
unit selected so its reach is drawn. key_to_redraw_cpu_ms is the same in process time: on a
shared machine the wall time mostly counts other programs' turns on the cores. It starts at the action the arrow key's binding runs and
forces the frame at once: the pilot's own idle waits (two 20 ms sleeps a key) and the wait for
the next frame tick are left out. Textual's private names are used here only. board_text_ms is the board's text alone, the part that grows with the map.

key_to_redraw_thinking_ms is `?` (the box of keys) the same way on outpost, pressed INTO_THINK
seconds after red (a human) ended its turn, while blue (THINKER) works out its first action:
the app's AI tick runs first, as its timer would between keys (a client that thinks on the UI
thread thinks there, and the key waits for the rest of the think).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from game import MAPS
from game.levels.loader import load_engine
from game.session.match import make_seats

KEYS_PER_RUN = 20
THINKER = "minimax:think=0.5"  # about a second a turn on outpost
INTO_THINK = 0.2  # seconds into blue's think when ? is pressed


def text(repeat: int = 5, **_options: Any) -> dict[str, float]:
    from game.text.app import RulefrontApp, board_text
    from game.text.cursor import Cursor

    engine = load_engine(MAPS / "frontier.png", seed=0)
    seats = make_seats(engine, {"red": "human", "blue": "random"}, 0)
    app = RulefrontApp(engine, seats, 0, None, ai_delay=3600.0)
    times: list[float] = []
    cpu: list[float] = []

    async def press_keys() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # a unit selected: its reach is drawn too
            for index in range(repeat * KEYS_PER_RUN):
                key = ("right", "down", "left", "up")[index // 5 % 4]
                dx, dy = {"right": (1, 0), "down": (0, 1), "left": (-1, 0), "up": (0, -1)}[key]
                start, start_cpu = time.perf_counter(), time.process_time()
                app.action_arrow(dx, dy)  # what the arrow key's binding runs
                await pilot._wait_for_screen()  # the refreshes it asked for, processed
                app.screen._on_timer_update()  # the screen's next frame, without waiting
                update = app.screen._compositor.render_update(full=True)
                if update is not None:
                    list(app.console.render(update))  # the segments a terminal is sent
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)

    asyncio.run(press_keys())
    help_idle = asyncio.run(help_while_thinking(repeat, busy=False))
    thinking = asyncio.run(help_while_thinking(repeat))
    cursor = Cursor(engine)
    board_times = []
    for _ in range(repeat):
        start = time.perf_counter()
        board_text(engine, cursor)
        board_times.append(time.perf_counter() - start)
    return {"text.key_to_redraw_ms": statistics.median(times) * 1000,
            "text.key_to_redraw_cpu_ms": statistics.median(cpu) * 1000,
            "text.board_text_ms": statistics.median(board_times) * 1000,
            "text.help_key_ms": help_idle * 1000,
            "text.key_to_redraw_thinking_ms": thinking * 1000}


async def help_while_thinking(repeat: int, busy: bool = True) -> float:
    """The median seconds from the AI's tick and `?` to the composed screen, while blue
    thinks (red's end of turn undone after each sample, then played again); with `busy`
    false, `?` on red's turn with nobody thinking (text.help_key_ms)."""
    from game.text.app import RulefrontApp

    engine = load_engine(MAPS / "outpost.png", seed=0)
    seats = make_seats(engine, {"red": "human", "blue": THINKER}, 0)
    app = RulefrontApp(engine, seats, 0, None, ai_delay=3600.0)
    times: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.5)  # the thinking process started (game/session/think.py)
        for _ in range(repeat):
            start = time.perf_counter()
            if busy:
                app.action_end_turn()
                app.action_end_turn()  # the first asks: no hero has acted
                start = time.perf_counter()
                app.ai_step()  # what the app's timer runs
                start += INTO_THINK  # ? comes then: handled once the app's loop is free
                await asyncio.sleep(max(0.0, start - time.perf_counter()))
            app.action_help()  # what ? runs
            await pilot._wait_for_screen()
            app.screen._on_timer_update()
            update = app.screen._compositor.render_update(full=True)
            if update is not None:
                list(app.console.render(update))
            times.append(time.perf_counter() - start)
            if len(app.screen_stack) > 1:
                app.pop_screen()  # the box of keys (the old client wrote a line instead)
                await pilot.pause()
            if busy:
                app.action_undo()  # back to red's turn (a think in progress is stopped)
    return statistics.median(times)
