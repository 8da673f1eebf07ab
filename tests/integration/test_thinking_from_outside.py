"""While an AI thinks, both clients keep answering: `rulefront play` as a player meets it.

The window: a real process on a virtual X server (Xvfb), keys typed with xdotool, the screen
photographed with ImageMagick's `import`. Red (a human) ends the turn; blue, a whole-turn
minimax with a minute per action, starts to think; H is pressed during the think, and the help
box is drawn while blue is still thinking: the thinking line is still on the panel and the
save still holds no move of blue's. Q then quits at once, without waiting for the search:
the process ends long before blue's first action could, with nothing of blue's saved.

The terminal: the same in tmux, `rulefront play --text` (the Textual client) read with
capture-pane: `?` shows the box of keys while blue thinks, and q quits at once.

How soon the help shows is a figure, not an assertion here: `rulefront bench render` and
`rulefront bench text` measure the key to the redraw while an AI thinks (docs/client.md).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from game.render.layout import Layout
from tests.helpers import until
from tests.integration.tmux import rulefront, terminal
from tests.integration.xdesk import HEIGHT, WIDTH, Desk, x_server

pytestmark = pytest.mark.integration

THINK = 60  # seconds per action: blue answers nothing while the test looks
THINKER = f"minimax:think={THINK}"
NOTICE = (255, 200, 120)  # the panel's notice colour, where the thinking line is written


def commands_saved(save: Path) -> int:
    return len(json.loads(save.read_text())["commands"]) if save.exists() else 0


def near(image: np.ndarray, color: tuple[int, int, int], tolerance: int = 24) -> int:
    return int((np.abs(image.astype(int) - np.array(color)).max(axis=2) <= tolerance).sum())


def play_args(save: Path, *extra: str) -> list[str]:
    return ["play", "outpost", "--blue", THINKER, "--save", str(save), *extra]


def test_the_window_shows_help_while_the_ai_thinks_and_quits_at_once(tmp_path):
    save = tmp_path / "save.json"
    with x_server() as display:
        desk = Desk(display, tmp_path)
        game = subprocess.Popen(rulefront(*play_args(save, "--size", f"{WIDTH}x{HEIGHT}")),
                                env=desk.env, cwd=tmp_path, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            window = desk.window("^Rulefront - ", game)
            lay = Layout(WIDTH, HEIGHT, 12, 12)  # outpost
            board = (slice(0, HEIGHT), slice(0, lay.panel_x))
            panel = (slice(0, HEIGHT), slice(lay.panel_x, WIDTH))
            until(lambda: len(np.unique(desk.window_shot(window)[board].reshape(-1, 3),
                                        axis=0)) > 20, "the board to be drawn")
            desk.key(window, "e")  # red ends its turn (asked first: no hero has acted)...
            desk.key(window, "e")  # ...and blue's AI starts to think
            thinking = until(lambda: [shot for shot in [desk.window_shot(window)]
                                      if near(shot[panel], NOTICE) > 20], "the thinking line")[0]
            assert commands_saved(save) == 1  # red's end of turn; blue has not answered
            desk.key(window, "h")

            def help_drawn() -> np.ndarray | None:
                shot = desk.window_shot(window)
                changed = (np.abs(shot[board].astype(int) - thinking[board].astype(int))
                           .max(axis=2) > 40).sum()
                return shot if changed > 0.05 * lay.panel_x * HEIGHT else None  # the box

            shown = until(help_drawn, "the help box over the board")
            assert near(shown[panel], NOTICE) > 20  # drawn while the thinking line still is
            assert commands_saved(save) == 1  # and blue had still not answered
            desk.key(window, "q")
            out, err = game.communicate(timeout=THINK - 15)  # not the rest of blue's think
        finally:
            if game.poll() is None:
                game.kill()
                game.wait()
    assert game.returncode == 0, err
    assert f"saved to {save}" in out
    assert commands_saved(save) == 1  # quitting mid-think submitted nothing


def test_the_terminal_shows_help_while_the_ai_thinks_and_quits_at_once(tmp_path):
    save = tmp_path / "save.json"
    with terminal(rulefront(*play_args(save, "--text")), tmp_path) as term:
        term.wait_for("red to play")
        term.keys("e", "e")  # e asks first: no hero has acted
        term.wait_for("is thinking")
        assert commands_saved(save) == 1
        term.keys("?")
        term.wait_for("Keys (")  # the box of keys...
        assert commands_saved(save) == 1  # ...while blue has not answered
        term.keys("q")  # any key closes the box of keys...
        until(lambda: "Keys (" not in term.screen(), "the box of keys to close")
        term.keys("q")  # ...and q quits, long before blue's think would end
        assert term.exit_code(seconds=THINK - 15) == 0
    assert commands_saved(save) == 1  # quitting mid-think submitted nothing
