"""`rulefront play` on an octal map as a player meets it, on a virtual X server: the last block
of a heap clicked, 2 and Enter typed, and the mouse left still. The board on the screen must
come to show the game the autosave holds (the take and the AI's answer) with no further input:
it used to keep the taken blocks on screen until the mouse moved."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from components.resources import SIZE_KEY
from game import MAPS
from game.levels.loader import load_engine
from game.render.colors import FLOOR
from game.render.layout import Layout
from game.rulesets.octal.ruleset import heaps_of
from game.session.replay import read_record, rebuild
from tests.helpers import until
from tests.integration.xdesk import HEIGHT, WIDTH, Desk, x_server

pytestmark = pytest.mark.integration


def blocks_drawn(shot: np.ndarray, lay: Layout) -> set[tuple[int, int]]:
    """The cells whose middle is not bare floor on a screenshot of the window."""
    found = set()
    for x in range(lay.cols):
        for y in range(lay.rows):
            left, bottom, size, _ = lay.cell_rect(x, y)
            top = HEIGHT - bottom - size
            middle = shot[top + size // 4:top + 3 * size // 4, left + size // 4:left + 3 * size // 4]
            if (middle == FLOOR).all(axis=2).mean() < 0.5:
                found.add((x, y))
    return found


def blocks_held(engine) -> set[tuple[int, int]]:
    return {(heap.x + i, heap.y) for heap in heaps_of(engine.world) for i in range(heap.size)}


def test_the_last_block_and_2_take_two_and_the_board_redraws_with_the_mouse_still(tmp_path):
    kayles = MAPS / "octal" / "kayles.png"
    start = load_engine(kayles)
    cols, rows = start.world.resource(SIZE_KEY)
    lay = Layout(WIDTH, HEIGHT, cols, rows)
    heap = heaps_of(start.world)[0]
    save = tmp_path / "save.json"
    with x_server() as display:
        desk = Desk(display, tmp_path)
        game = subprocess.Popen([sys.executable, "-m", "game", "play", str(kayles), "--blue",
                                 "perfect", "--save", str(save), "--size", f"{WIDTH}x{HEIGHT}"],
                                env=desk.env, cwd=tmp_path)
        try:
            window = desk.window("^Rulefront - ")
            until(lambda: blocks_drawn(desk.window_shot(window), lay) == blocks_held(start),
                  "the first frame")
            desk.click(window, *lay.cell_center(heap.x + heap.size - 1, heap.y))
            desk.key(window, "2", "Return")

            def settled():
                if not save.exists():
                    return None
                engine = rebuild(read_record(save))
                if len(engine.history) < 2:
                    return None  # the AI has not answered yet
                return blocks_drawn(desk.window_shot(window), lay) == blocks_held(engine) \
                    and engine

            engine = until(settled, "the board to show the saved game")
            took = engine.history[0].command
            assert (took.heap, took.count, took.left) == (0, 2, heap.size - 2)
        finally:
            game.kill()
            game.wait(10)
