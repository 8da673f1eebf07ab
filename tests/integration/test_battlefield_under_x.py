"""`rulefront play` as a player meets it, on a virtual X server driven by xdotool and
photographed with `import`: hovering an enemy draws where it can move (blue) and strike (red)
next turn, T draws every enemy's, + and the mouse wheel zoom the board; then a sage is hit and killed, the log
the window draws and the save it writes keep the sage's name, and `--resume` draws the same
log again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game import registry
from game.levels.loader import load_engine
from game.render import colors
from game.render.layout import Layout
from tests.helpers import draw_map, until
from tests.integration.xdesk import HEIGHT, WIDTH, Desk, x_server

pytestmark = pytest.mark.integration

# A red sage (2,2) beside a blue duelist (3,2) and a blue bulwark (2,3); the hqs and a red
# bulwark stand too far off to shoot anyone.
ROWS = ["Q.....B..",
        ".........",
        "..Sd.....",
        "..b......",
        ".........",
        "........q"]
COLS, LINES = 9, 6


def pixel(shot: np.ndarray, px: float, py: float) -> np.ndarray:
    """The colour at pyglet point (px, py) (origin bottom-left) of a window screenshot."""
    return shot[HEIGHT - 1 - int(py), int(px)].astype(int)


def outline(lay: Layout, cell: tuple[int, int]) -> tuple[float, float]:
    """A point on the inner outline the threat draws in `cell` (left side, half-way up)."""
    left, bottom, size, _ = lay.cell_rect(*cell)
    edge = max(1, size // 12)
    return left + edge + edge // 2, bottom + size / 2


def blue(colour: np.ndarray) -> bool:
    return colour[2] - colour[0] > 80


def red(colour: np.ndarray) -> bool:
    return colour[0] - colour[2] > 100


def share(image: np.ndarray, colour: tuple[int, int, int], tolerance: int = 10) -> float:
    return float((np.abs(image - np.array(colour)).max(axis=2) <= tolerance).mean())


def play(desk: Desk, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "game", "play", *args, "--size",
                             f"{WIDTH}x{HEIGHT}"], env=desk.env, cwd=desk.folder,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_threat_overlay_zoom_and_a_log_that_keeps_names_through_a_resume(tmp_path: Path):
    path = draw_map(tmp_path / "field.png", ROWS)
    engine = load_engine(path)
    lay = Layout(WIDTH, HEIGHT, COLS, LINES)
    edge = registry.spec(engine.ruleset.name).edge("threat")
    occupied = {(x, y) for y, row in enumerate(ROWS) for x, c in enumerate(row) if c != "."}
    duelist = engine.world.at(3, 2)[0]
    moves, strikes = edge(engine, duelist)
    strikes = strikes - moves
    save = tmp_path / "save.json"
    panel = (slice(0, HEIGHT), slice(lay.panel_x, WIDTH))
    board = (slice(0, HEIGHT), slice(0, lay.panel_x))
    with x_server() as display:
        desk = Desk(display, tmp_path)
        game = play(desk, str(path), "--save", str(save))
        try:
            window = desk.window("^Rulefront - ")

            def hover(px: float, py: float) -> None:
                desk.run("xdotool", "mousemove", "--window", window, str(int(px)),
                         str(int(HEIGHT - py)))

            calm = until(lambda: [s for s in [desk.window_shot(window)]
                                  if share(s[board], colors.FLOOR) > 0.3], "the board")[0]
            empty_moves = sorted(moves - occupied)[:4]
            empty_strikes = sorted(strikes - occupied)[:4]
            assert empty_moves and empty_strikes
            for cell in empty_moves + empty_strikes:
                spot = pixel(calm, *outline(lay, cell))
                assert not blue(spot) and not red(spot), cell  # bare floor before

            hover(*lay.cell_center(3, 2))  # the blue duelist
            shown = until(lambda: [s for s in [desk.window_shot(window)]
                                   if blue(pixel(s, *outline(lay, empty_moves[0])))],
                          "the duelist's threat")[0]
            for cell in empty_moves:
                assert blue(pixel(shown, *outline(lay, cell))), cell  # it may walk there
            for cell in empty_strikes:
                assert red(pixel(shown, *outline(lay, cell))), cell  # it may strike there
            far = (8, 0)  # out of the duelist's reach
            assert not blue(pixel(shown, *outline(lay, far))) and not red(pixel(shown, *outline(lay, far)))

            hover(lay.panel_x + 100, 300)  # off the board: the hovered threat goes...
            desk.key(window, "t")  # ...and T shows every enemy's, the blue hq's fire too
            hq_fire = (8, 3)  # two cells above the blue hq, out of the blue heroes' reach
            every = until(lambda: [s for s in [desk.window_shot(window)]
                                   if red(pixel(s, *outline(lay, hq_fire)))],
                          "every enemy's threat")[0]
            assert blue(pixel(every, *outline(lay, empty_moves[0])))
            desk.key(window, "t")

            floor_before = share(calm[board], colors.FLOOR)
            desk.key(window, "plus", "plus", "plus")
            zoomed = until(lambda: [s for s in [desk.window_shot(window)]
                                    if share(s[board], colors.FLOOR) > floor_before + 0.1],
                           "the board zoomed in")[0]
            assert share(zoomed[panel], colors.PANEL) > 0.5  # the board stays off the panel
            desk.key(window, "0")
            until(lambda: abs(share(desk.window_shot(window)[board], colors.FLOOR)
                              - floor_before) < 0.02, "the board fitted again")
            desk.run("xdotool", "mousemove", "--window", window, "300", "300",
                     "click", "4", "click", "4", "click", "4")  # the wheel, on the board
            wheeled = until(lambda: [s for s in [desk.window_shot(window)]
                                     if share(s[board], colors.FLOOR) > floor_before + 0.1],
                            "the board zoomed by the wheel")[0]
            desk.run("xdotool", "mousemove", "--window", window, "200", "300", "mousedown", "3",
                     "mousemove", "--window", window, "400", "300", "mouseup", "3")
            until(lambda: np.abs(desk.window_shot(window)[board].astype(int)
                                 - wheeled[board].astype(int)).max(axis=2).mean() > 5,
                  "the board dragged by the right button")
            assert not save.exists() or not json.loads(save.read_text())["commands"]
            desk.key(window, "0")

            desk.key(window, "e")  # the red heroes have not acted: a question first
            desk.key(window, "e")  # yes: end it; blue's hand-over screen
            desk.click(window, 200, 200)
            for attacker in ((3, 2), (2, 3)):  # the duelist hits for 5, the bulwark for 3
                desk.click(window, *lay.cell_center(*attacker))
                desk.click(window, *lay.cell_center(2, 2))
            desk.key(window, "e")  # both blue heroes acted: no question
            desk.click(window, 200, 200)  # red's hand-over
            hover(lay.panel_x + 100, 300)  # the pointer rests on the panel: no tooltip
            logged = until(lambda: [s for s in [desk.window_shot(window)]
                                    if share(s[panel], colors.SELECT, 20) > 0.001], "the log")[0]
            desk.key(window, "q")
            game.communicate(timeout=60)
        finally:
            if game.poll() is None:
                game.kill()
                game.communicate()
        told = [line for entry in json.loads(save.read_text())["log"]
                for line in entry["lines"]]
        assert "blue duelist hits red sage for 5 (2 left)" in told  # named when it was hit
        assert "blue bulwark hits red sage for 3 (0 left)" in told and "red sage dies" in told

        resumed = play(desk, "--resume", str(save), "--save", str(save))
        try:
            window = desk.window("^Rulefront - ")
            again = until(lambda: [s for s in [desk.window_shot(window)]
                                   if share(s[panel], colors.SELECT, 20) > 0.001],
                          "the resumed log")[0]
            desk.key(window, "q")
            resumed.communicate(timeout=60)
        finally:
            if resumed.poll() is None:
                resumed.kill()
                resumed.communicate()
    # The panel from the rules down (status, ready units, the log with its headings) is drawn
    # the same after the resume as before the quit.
    lower = (slice(HEIGHT // 3, HEIGHT - 60), slice(lay.panel_x, WIDTH))
    assert np.abs(logged[lower].astype(int) - again[lower].astype(int)).max(axis=2) \
        .astype(bool).mean() < 0.002
