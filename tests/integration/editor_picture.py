"""Draw docs/img/editor.png from the real editor: `rulefront edit` on a copy of duel under Xvfb,
a few cells painted with the mouse, the pointer on a palette entry, photographed with `import`.

    python -m tests.integration.editor_picture docs/img/editor.png
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from game import MAPS
from game.data import palette
from game.render.controllers.editor import palette_groups
from game.render.editor_layout import plan_palette
from game.render.layout import Layout
from tests.integration.test_editor_under_x import HEIGHT, WIDTH, Desk, x_server


def main(out: str) -> None:
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


if __name__ == "__main__":
    main(sys.argv[1])
