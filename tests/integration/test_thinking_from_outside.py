"""While an AI thinks, both clients keep answering: `rulefront play` as a player meets it.

The window: a real process on a virtual X server (Xvfb), keys typed with xdotool, the screen
photographed with ImageMagick's `import`. Red (a human) ends the turn; blue, a whole-turn
minimax with five seconds per action, thinks for several seconds; H is pressed during the
think, and the help box must be on the screen within a second while the save still shows no
move of blue's (it is still thinking); Q then quits at once, without waiting for the search.

The terminal: the same in tmux, `rulefront play --text` (the Textual client) read with
capture-pane: `?` shows the box of keys while blue thinks, and q quits at once.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game import ROOT
from game.render.layout import Layout
from tests.integration.test_editor_under_x import Desk, x_server
from tests.integration.test_editor_under_x import until as wait_for

pytestmark = pytest.mark.integration

THINKER = "minimax:think=5"  # a whole turn of outpost: about ten seconds of search
NOTICE = (255, 200, 120)  # the panel's notice colour, where the thinking line is written
WINDOW = (1024, 768)


def commands_saved(save: Path) -> int:
    return len(json.loads(save.read_text())["commands"]) if save.exists() else 0


def near(image: np.ndarray, color: tuple[int, int, int], tolerance: int = 24) -> int:
    return int((np.abs(image.astype(int) - np.array(color)).max(axis=2) <= tolerance).sum())


def origin(desk: Desk, window: str) -> tuple[int, int]:
    """Where the window sits on the screen (the server has no window manager to move it)."""
    found = desk.run("xdotool", "getwindowgeometry", "--shell", window)
    geometry = dict(line.split("=") for line in found.splitlines())
    return int(geometry["X"]), int(geometry["Y"])


def grab(desk: Desk, at: tuple[int, int]) -> np.ndarray:
    """The window as the screen shows it, by `import -window root` cut to the window (a BMP:
    encoding a PNG costs import a quarter of a second on a busy machine)."""
    desk.shots += 1
    path = desk.folder / f"shot{desk.shots}.bmp"
    desk.run("import", "-window", "root", str(path))
    with Image.open(path) as picture:
        return np.array(picture.convert("RGB"))[at[1]:at[1] + WINDOW[1], at[0]:at[0] + WINDOW[0]]


def play_command(save: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "game", "play", "outpost", "--blue", THINKER, "--save",
            str(save), *extra]


@pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xdotool") is None
                    or shutil.which("import") is None,
                    reason="needs Xvfb, xdotool and ImageMagick (.ci/run installs them)")
def test_the_window_shows_help_within_a_second_while_the_ai_thinks_and_quits_at_once(
        tmp_path):
    save = tmp_path / "save.json"
    with x_server() as display:
        desk = Desk(display, tmp_path)
        env = {**desk.env, "PYTHONPATH": str(ROOT)}
        game = subprocess.Popen(play_command(save), env=env, cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            window = desk.window("Rulefront - ")
            at = origin(desk, window)
            cols, rows = 12, 12  # outpost
            lay = Layout(*WINDOW, cols, rows)
            board = (slice(0, WINDOW[1]), slice(0, lay.panel_x))
            panel = (slice(0, WINDOW[1]), slice(lay.panel_x, WINDOW[0]))
            wait_for(lambda: len(np.unique(grab(desk, at)[board].reshape(-1, 3),
                                           axis=0)) > 20, "the board to be drawn")
            desk.key(window, "e")  # red ends its turn (asked first: no hero has acted)...
            desk.key(window, "e")  # ...and blue's AI starts to think
            thinking = wait_for(lambda: [shot for shot in [grab(desk, at)]
                                         if near(shot[panel], NOTICE) > 20],
                                "the thinking line")[0]
            assert commands_saved(save) == 1  # red's end of turn; blue has not answered
            desk.key(window, "h")
            pressed = time.monotonic()
            changed = 0
            while time.monotonic() - pressed < 1.0:
                shot = grab(desk, at)
                changed = int((np.abs(shot[board].astype(int) - thinking[board].astype(int))
                               .max(axis=2) > 40).sum())
                if changed > 0.05 * lay.panel_x * WINDOW[1]:  # the help box covers the board
                    break
            assert changed > 0.05 * lay.panel_x * WINDOW[1], "no help box a second after H"
            assert near(shot[panel], NOTICE) > 20  # the thinking line is still there
            assert commands_saved(save) == 1  # and blue had still not answered
            desk.key(window, "q")
            out, err = game.communicate(timeout=15)  # not the rest of blue's ten seconds
        finally:
            if game.poll() is None:
                game.kill()
                game.wait()
    assert game.returncode == 0, err
    assert f"saved to {save}" in out
    assert commands_saved(save) == 1  # quitting mid-think submitted nothing


class Tmux:
    """A tmux server of the test's own (its own socket), one pane of a given size."""

    def __init__(self, tmp_path: Path) -> None:
        self.socket = f"rulefront-test-{uuid.uuid4().hex[:12]}"
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
        self.tmp_path = tmp_path

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], env=self.env,
                              capture_output=True, text=True, timeout=30)
        return done.stdout

    def start(self, command: list[str]) -> None:
        line = " ".join(command) + "; echo rulefront-exit=$?; sleep 60"
        self.tmux("new-session", "-d", "-x", "100", "-y", "30", "-c", str(self.tmp_path),
                  "sh", "-c", line)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    def stop(self) -> None:
        self.tmux("kill-server")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_the_terminal_shows_help_while_the_ai_thinks_and_quits_at_once(tmp_path):
    save = tmp_path / "save.json"
    term = Tmux(tmp_path)
    term.start(play_command(save, "--text"))
    try:
        wait_for(lambda: "red to play" in term.screen(), "the Textual client")
        term.keys("e", "e")  # e asks first: no hero has acted
        wait_for(lambda: "is thinking" in term.screen(), "the thinking line")
        assert commands_saved(save) == 1
        term.keys("?")
        pressed = time.monotonic()
        while time.monotonic() - pressed < 1.0 and "Keys (" not in (shown := term.screen()):
            time.sleep(0.05)
        assert "Keys (" in shown, "no help a second after ?"  # the box of keys
        assert commands_saved(save) == 1  # blue is still thinking
        term.keys("q")  # any key closes the box of keys...
        wait_for(lambda: "Keys (" not in term.screen(), "the box of keys to close")
        term.keys("q")  # ...and q quits
        wait_for(lambda: "rulefront-exit=" in term.screen(), "the client to quit", 15)
        assert "rulefront-exit=0" in term.screen()
    finally:
        term.stop()
    assert commands_saved(save) == 1  # quitting mid-think submitted nothing
