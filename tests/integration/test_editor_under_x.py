"""`rulefront edit` as a player meets it: a real process on a real (virtual) X server, clicked
and typed at with xdotool, photographed with ImageMagick's `import`.

The test copies the shipped duel map, picks palette entries and paints board cells with the
mouse, saves with S and reads the PNG back; photographs the screen to see the grid and the
sprites; opens the match on the map with P; and checks that Q with unsaved changes asks
before anything is lost. Where to click comes from the editor's own geometry
(game/render/editor_layout.py), which holds no pyglet.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game import MAPS
from game.data import palette
from game.levels.maps import load_map
from game.render.controllers.editor import palette_groups
from game.render.editor_layout import plan_palette
from game.render.layout import Layout
from game.render.sprites import read_index, sprite_folder
from tests.helpers import color_of, until
from tests.integration.xdesk import HEIGHT, WIDTH, Desk, x_server

pytestmark = pytest.mark.integration

GRID_LINE = (120, 116, 104)  # editor_window.GRID_LINE (that module imports pyglet)


def pixels(path: Path) -> dict[tuple[int, int], str]:
    return {(x, y): e.name for x, y, e in load_map(path).cells}


def sprite_colors(frame: str) -> set[tuple[int, int, int]]:
    """The opaque colours of one sprite frame, straight from its sheet."""
    index = read_index(sprite_folder())
    sheet = index.sheets[index.where[frame]]
    col, row = sheet.frames[frame]
    cell = sheet.cell
    cut = np.array(sheet.picture.crop((col * cell, row * cell, (col + 1) * cell,
                                       (row + 1) * cell)))
    return {tuple(int(c) for c in p[:3]) for p in cut.reshape(-1, 4) if p[3] > 0}


def cell_pixels(image: np.ndarray, lay: Layout, cell: tuple[int, int]) -> np.ndarray:
    """The inside of a board cell in a screenshot (top row first), grid lines left out."""
    left, bottom, size, _ = lay.cell_rect(*cell)
    top = HEIGHT - (bottom + size)
    return image[top + 2:top + size - 1, left + 2:left + size - 1].reshape(-1, 3)


def test_rulefront_edit_paints_saves_plays_and_asks_before_losing_work(tmp_path):
    copy = tmp_path / "copy.png"
    shutil.copy(MAPS / "duel.png", copy)
    shutil.copy(MAPS / "duel.yaml", tmp_path / "copy.yaml")
    before = pixels(copy)
    entries = list(palette().values())
    lay = Layout(WIDTH, HEIGHT, 24, 24)
    plan = plan_palette(lay, palette_groups(entries))

    def swatch(name: str) -> tuple[int, int]:
        return plan.spot(next(i for i, e in enumerate(entries) if e.name == name)).center

    with x_server() as display:
        desk = Desk(display, tmp_path)
        editor = subprocess.Popen([sys.executable, "-m", "game", "edit", str(copy),
                                   "--size", f"{WIDTH}x{HEIGHT}"], cwd=tmp_path, env=desk.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        played: list[str] = []
        try:
            window = desk.window("^Rulefront editor")
            # Water on two floor cells, a blue sage on a third, then S.
            desk.click(window, *swatch("water"))
            for cell in ((2, 2), (3, 2)):
                desk.click(window, *lay.cell_center(*cell))
            desk.click(window, *swatch("blue sage"))
            desk.click(window, *lay.cell_center(1, 4))
            desk.key(window, "s")
            saved = until(lambda: (p := pixels(copy)) != before and p, "the saved map")
            assert saved[(2, 2)] == saved[(3, 2)] == "water"
            assert saved[(1, 4)] == "blue sage"
            assert {c: n for c, n in saved.items() if c not in ((2, 2), (3, 2), (1, 4))} == before
            image = load_map(copy)
            assert image.sidecar["name"] == "Duel"  # the sidecar is written back too

            # What the player sees: sprites, not flat colours, on a grid.
            desk.click(window, lay.panel_x + 150, HEIGHT - 190)  # away from the board
            shot = desk.window_shot(window)
            water = cell_pixels(shot, lay, (2, 2))
            colours = {tuple(int(c) for c in p) for p in water}
            assert len(colours) >= 3  # a flat colour square would be one
            known = sprite_colors("water.2") | sprite_colors("water.8")
            assert sum(tuple(int(c) for c in p) in known for p in water) > 0.8 * len(water)
            sage = cell_pixels(shot, lay, (1, 4))
            assert (sage == color_of("floor")[:3]).all(axis=1).mean() < 0.9  # something stands
            ox, oy = lay.origin
            line_x = ox + 10 * lay.cell
            column = shot[HEIGHT - oy - lay.cell * 24:HEIGHT - oy, line_x]
            assert (column == GRID_LINE).all(axis=1).mean() > 0.5  # a grid line down the board

            # P: the match opens on the saved map, in a window of its own.
            desk.key(window, "p")
            match = desk.window("^Rulefront - Duel")
            played.append(match)
            desk.key(match, "q")
            until(lambda: not desk.run("xdotool", "search", "--name", "^Rulefront - Duel"),
                  "the match window to close")
            played.clear()

            # Unsaved work: Q asks, the file stays as saved, D quits without saving.
            desk.click(window, *swatch("rock"))
            desk.click(window, *lay.cell_center(0, 0))
            desk.key(window, "q")
            until(lambda: _question_shown(desk.window_shot(window), lay),
                  "the unsaved-changes question")
            assert editor.poll() is None
            assert pixels(copy) == saved
            desk.key(window, "d")
            assert editor.wait(60) == 0, editor.stderr.read() if editor.stderr else ""
            assert pixels(copy) == saved  # the rock painted after S was not written
        except BaseException:
            if editor.poll() is None:
                editor.kill()
            print("editor said:", *editor.communicate(timeout=10), sep="\n")
            raise
        finally:
            for name in played:
                desk.run("xdotool", "key", "--window", name, "q")
            if editor.poll() is None:
                editor.kill()
                editor.wait(10)


def _question_shown(shot: np.ndarray, lay: Layout) -> bool:
    """The question's yellow frame shows in the middle of the board."""
    cx = lay.panel_x // 2
    middle = shot[HEIGHT // 2 - 80:HEIGHT // 2 + 80, cx - 220:cx + 220]
    return bool((middle == (255, 230, 80)).all(axis=2).sum() > 200)
