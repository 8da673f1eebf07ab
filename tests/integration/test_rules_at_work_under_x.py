"""Players see the rules at work, in the real window (`rulefront play` on a virtual X server,
driven by xdotool, photographed with `import`), resumed from a save on crossing where a red
hero stands over the IS of WATER IS STOP: selecting the hero and hovering the IS boxes the
sentence the push would break in red on the board (the panel's tooltip says it in words, as
tests/unit/session/test_rulesense.py pins); a click pushes, and the log the window kept and
saved tells the rule broken and what that changes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.commands import EndTurn, Move
from game.levels.loader import load_engine
from game.render import colors
from game.render.layout import Layout
from game.session.match import make_seats
from game.session.saves import save_game
from tests.helpers import until
from tests.integration.xdesk import HEIGHT, WIDTH, Desk, x_server

pytestmark = pytest.mark.integration

HERO = 2  # crossing's red hero at 4,2; two turns bring it over the IS at 7,5


def edge(shot: np.ndarray, lay: Layout, cell: tuple[int, int], side: str) -> np.ndarray:
    """The colour just inside the left or right edge of `cell`, half-way up."""
    left, bottom, size, _ = lay.cell_rect(*cell)
    px = left + 2 if side == "left" else left + size - 3
    return shot[HEIGHT - 1 - int(bottom + size / 2), int(px)].astype(int)


def boxed(colour: np.ndarray) -> bool:
    return int(np.abs(colour - np.array(colors.RULE_BROKEN)).max()) <= 30


def test_hovering_a_word_push_boxes_the_rule_it_breaks_and_the_push_is_logged(tmp_path: Path):
    engine = load_engine("maps/crossing.png", seed=7)
    for command in (Move(HERO, 6, 3), EndTurn(), EndTurn(), Move(HERO, 7, 4)):
        assert engine.submit(command)
    save = tmp_path / "save.json"
    save_game(save, engine, make_seats(engine, {"red": "human", "blue": "random"}, 7), 7)
    lay = Layout(WIDTH, HEIGHT, 16, 16)
    water, stop = (6, 5), (8, 5)  # the sentence's first and last words
    with x_server() as display:
        desk = Desk(display, tmp_path)
        game = subprocess.Popen([sys.executable, "-m", "game", "play", "--resume", str(save),
                                 "--save", str(save), "--size", f"{WIDTH}x{HEIGHT}"],
                                env=desk.env, cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            window = desk.window("^Rulefront - ", game)
            calm = until(lambda: [s for s in [desk.window_shot(window)]
                                  if (np.abs(s[:, :lay.panel_x].astype(int)
                                             - np.array(colors.FLOOR)).max(axis=2) < 10)
                                  .mean() > 0.3], "the board")[0]
            assert not boxed(edge(calm, lay, water, "left"))
            assert not boxed(edge(calm, lay, stop, "right"))
            desk.click(window, *lay.cell_center(7, 4))  # select the hero
            desk.run("xdotool", "mousemove", "--window", window,
                     *map(str, map(int, (lay.cell_center(7, 5)[0],
                                         HEIGHT - lay.cell_center(7, 5)[1]))))
            shown = until(lambda: [s for s in [desk.window_shot(window)]
                                   if boxed(edge(s, lay, water, "left"))],
                          "WATER IS STOP boxed in red")[0]
            assert boxed(edge(shown, lay, stop, "right"))
            desk.click(window, *lay.cell_center(7, 5))  # push IS down: the rule breaks
            until(lambda: save.exists() and any(
                "WATER IS STOP" in line for entry in json.loads(save.read_text())["log"]
                for line in entry["lines"]), "the push saved")
            desk.key(window, "q")
            game.communicate(timeout=30)
        finally:
            if game.poll() is None:
                game.kill()
                game.communicate()
    told = [line for entry in json.loads(save.read_text())["log"] for line in entry["lines"]]
    assert "WATER IS STOP is broken: water loses STOP, which meant: solid: no unit walks in, and a push against it is blocked" in told
