"""The documentation's pictures of the real windows, under Xvfb, photographed with `import`:
editor.png (`rulefront edit` on a copy of duel, a few cells painted with the mouse, the pointer
on a palette entry), octal.png (Kayles against the perfect AI, the last block of a heap
clicked and 2 pressed), threat.png (duel after three rounds of heuristic play, resumed: a red
ranger selected, the pointer on a blue sage, whose threat shows) and threat-all.png (the same
with T: every blue unit's threat) and frontier-zoom.png (frontier, 40x40, zoomed in three
wheel steps around the red heroes, the pointer on a blue unit).

    python -m tests.integration.window_pictures docs/img
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from components.resources import SIZE_KEY
from game import MAPS
from game.data import palette
from game.levels.loader import load_engine
from game.render.colors import FLOOR
from game.render.controllers.editor import palette_groups
from game.render.editor_layout import plan_palette
from game.render.layout import Layout
from game.rulesets.octal.ruleset import heaps_of
from tests.helpers import until
from tests.integration.xdesk import HEIGHT, WIDTH, Desk, x_server


def editor_picture(out: Path) -> None:
    folder = Path(tempfile.mkdtemp())
    copy = folder / "duel.png"
    shutil.copy(MAPS / "duel.png", copy)
    shutil.copy(MAPS / "duel.yaml", folder / "duel.yaml")
    entries = list(palette().values())
    lay = Layout(WIDTH, HEIGHT, 24, 24)
    plan = plan_palette(lay, palette_groups(entries))

    def swatch(name: str) -> tuple[int, int]:
        return plan.spot(next(i for i, e in enumerate(entries) if e.name == name)).center

    with x_server() as display:
        desk = Desk(display, folder)
        editor = subprocess.Popen([sys.executable, "-m", "game", "edit", str(copy), "--size",
                                   f"{WIDTH}x{HEIGHT}"], env=desk.env)
        try:
            window = desk.window("^Rulefront editor")
            desk.click(window, *swatch("water"))
            for cell in ((9, 4), (10, 4), (11, 4), (12, 4)):
                desk.click(window, *lay.cell_center(*cell))
            desk.click(window, *swatch("blue sage"))
            desk.click(window, *lay.cell_center(12, 5))
            desk.click(window, *swatch("word WATER"))
            desk.run("xdotool", "mousemove", "--window", window,
                     *map(str, (swatch("word SINK")[0], HEIGHT - swatch("word SINK")[1])))
            shot = desk.window_shot(window)
            shot = desk.window_shot(window)  # the hover mark drawn after the move
            Image.fromarray(shot).save(out)
        finally:
            editor.kill()
            editor.wait(10)
    shutil.rmtree(folder)


def octal_picture(out: Path) -> None:
    folder = Path(tempfile.mkdtemp())
    kayles = MAPS / "octal" / "kayles.png"
    start = load_engine(kayles)
    lay = Layout(WIDTH, HEIGHT, *start.world.resource(SIZE_KEY))
    heap = heaps_of(start.world)[-1]
    with x_server() as display:
        desk = Desk(display, folder)
        game = subprocess.Popen([sys.executable, "-m", "game", "play", str(kayles), "--blue",
                                 "perfect", "--save", str(folder / "save.json"), "--size",
                                 f"{WIDTH}x{HEIGHT}"], env=desk.env)
        try:
            window = desk.window("^Rulefront - ")
            desk.window_shot(window)
            desk.click(window, *lay.cell_center(heap.x + heap.size - 1, heap.y))
            desk.key(window, "2")
            desk.window_shot(window)
            Image.fromarray(desk.window_shot(window)).save(out)
        finally:
            game.kill()
            game.wait(10)
    shutil.rmtree(folder)


def threat_pictures(out: Path, every: Path) -> None:
    from components import Kind, Position, Team, UnitClass
    from game.session.match import make_seats
    from game.session.saves import save_game
    from game.session.seat import Chosen, step
    from systems.ai import Budget

    folder = Path(tempfile.mkdtemp())
    engine = load_engine(MAPS / "duel.png", seed=5)
    seats = make_seats(engine, {"red": "heuristic", "blue": "heuristic"}, 5)
    while engine.ruleset.report(engine.world)["round"] < 4:
        chosen = step(seats[engine.side], engine, Budget())
        assert isinstance(chosen, Chosen)
        engine.submit(chosen.command)
    save = folder / "save.json"
    save_game(save, engine, make_seats(engine, {"red": "human", "blue": "heuristic"}, 5), 5)
    world = engine.world

    def cell_of(side: str, name: str) -> tuple[int, int]:
        unit = next(e for e, (kind, team, cls) in world.query(Kind, Team, UnitClass)
                    if kind.name == "hero" and team.side == side and cls.name == name)
        pos = world.get(unit, Position)
        return pos.x, pos.y

    lay = Layout(WIDTH, HEIGHT, *world.resource(SIZE_KEY))
    with x_server() as display:
        desk = Desk(display, folder)
        game = subprocess.Popen([sys.executable, "-m", "game", "play", "--resume", str(save),
                                 "--save", str(save), "--size", f"{WIDTH}x{HEIGHT}"],
                                env=desk.env)
        def outlined(least: int) -> Any:
            """A screenshot once more than `least` pixels of the red outline (the threat's
            strikes) show, and how many."""
            def check() -> Any:
                shot = desk.window_shot(window)
                edge = int((np.abs(shot.astype(int) - np.array([249, 103, 84])).max(axis=2)
                            <= 30).sum())
                return [(shot, edge)] if edge > least else None
            return until(check, "the threat drawn")[0]

        try:
            window = desk.window("^Rulefront - ")
            until(lambda: (desk.window_shot(window) == FLOOR).all(axis=2).mean() > 0.2,
                  "the board")
            desk.click(window, *lay.cell_center(*cell_of("red", "ranger")))
            sx, sy = lay.cell_center(*cell_of("blue", "sage"))
            desk.run("xdotool", "mousemove", "--window", window, str(int(sx)),
                     str(int(HEIGHT - sy)))
            shot, edge = outlined(1500)
            Image.fromarray(shot).save(out)
            desk.run("xdotool", "mousemove", "--window", window, str(WIDTH - 100), "700")
            desk.key(window, "t")
            Image.fromarray(outlined(edge + 2000)[0]).save(every)
        finally:
            game.kill()
            game.wait(10)
    shutil.rmtree(folder)


def zoom_picture(out: Path) -> None:
    from components import Kind, Position, Team

    folder = Path(tempfile.mkdtemp())
    frontier = MAPS / "frontier.png"
    world = load_engine(frontier).world
    lay = Layout(WIDTH, HEIGHT, *world.resource(SIZE_KEY))
    heroes = [world.get(e, Position) for e, (kind, team) in world.query(Kind, Team)
              if kind.name == "hero" and team.side == "red"]
    cx = sum(p.x for p in heroes) / len(heroes)
    cy = sum(p.y for p in heroes) / len(heroes)
    with x_server() as display:
        desk = Desk(display, folder)
        game = subprocess.Popen([sys.executable, "-m", "game", "play", str(frontier), "--save",
                                 str(folder / "save.json"), "--size", f"{WIDTH}x{HEIGHT}"],
                                env=desk.env)
        try:
            window = desk.window("^Rulefront - ")
            fitted = until(lambda: [s for s in [desk.window_shot(window)]
                                    if (s == FLOOR).all(axis=2).mean() > 0.2], "the board")[0]
            px, py = lay.cell_center(int(cx), int(cy))
            desk.run("xdotool", "mousemove", "--window", window, str(int(px)),
                     str(int(HEIGHT - py)), "click", "4", "click", "4", "click", "4",
                     "click", "4")
            until(lambda: (desk.window_shot(window) == FLOOR).all(axis=2).mean()
                  > (fitted == FLOOR).all(axis=2).mean() + 0.05, "the board zoomed")
            Image.fromarray(desk.window_shot(window)).save(out)
        finally:
            game.kill()
            game.wait(10)
    shutil.rmtree(folder)


if __name__ == "__main__":
    editor_picture(Path(sys.argv[1]) / "editor.png")
    octal_picture(Path(sys.argv[1]) / "octal.png")
    threat_pictures(Path(sys.argv[1]) / "threat.png", Path(sys.argv[1]) / "threat-all.png")
    zoom_picture(Path(sys.argv[1]) / "frontier-zoom.png")
