"""`rulefront play --text` as a player meets it: the real command in an 80x24 tmux pane, keys
sent with `tmux send-keys`, the screen read back with `capture-pane` (its text, and with -e
its colours). The log wraps its sentences instead of cutting them, `?` shows every key that
applies inside the 80x24 screen, the cursor is bright, neighbouring cells differ in ground,
and a puzzle offers no end of turn and no save."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from game import ROOT
from tests.helpers import draw_cells
from tests.integration.xdesk import until

pytestmark = pytest.mark.integration

PANEL = 51  # the column where the side panel starts at 80 columns (its border)


class Pane:
    """One tmux server of our own (its own socket), one 80x24 pane running a command."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30)
        return done.stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "0", *keys)

    def text(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-t", "0").splitlines()

    def colours(self) -> str:
        return self.tmux("capture-pane", "-p", "-e", "-t", "0")

    def shows(self, *words: str) -> list[str] | None:
        screen = self.text()
        joined = "\n".join(screen)
        return screen if all(word in joined for word in words) else None


@contextmanager
def pane(tmp_path: Path, *args: str) -> Iterator[Pane]:
    assert shutil.which("tmux"), "tmux is needed"
    socket = f"rulefront-test-{uuid.uuid4().hex[:12]}"
    command = " ".join([sys.executable, "-m", "game", "play", *args, "--text"])
    env = {"PYTHONPATH": str(ROOT), "COLORTERM": "truecolor", "TERM": "xterm-256color"}
    subprocess.run(["tmux", "-L", socket, "-f", os.devnull, "new-session", "-d", "-x", "80",
                    "-y", "24", *[f"-e{k}={v}" for k, v in env.items()], "-c", str(tmp_path),
                    command], check=True, timeout=30, env={**os.environ, **env})
    shell = Pane(socket)
    try:
        yield shell
    finally:
        shell.tmux("kill-server")


def panel_text(screen: list[str]) -> str:
    """The side panel's words, its lines joined (what a wrapped sentence reads as)."""
    return " ".join(" ".join(line[PANEL + 1:].split()) for line in screen[:-1])


def test_the_log_wraps_help_fits_and_the_cursor_and_cells_stand_out(tmp_path):
    game_map = draw_cells(tmp_path / "wide.png", 14, 14,
                          {(0, 0): "red hq", (13, 13): "blue hq", (11, 11): "red pathfinder",
                           (2, 2): "blue bulwark"}, {"name": "wide"})
    with pane(tmp_path, str(game_map), "--blue", "human", "--save",
              str(tmp_path / "save.json")) as shell:
        until(lambda: shell.shows("red to play"), "the board")
        # the cursor starts on the pathfinder: select it, one step right, move there
        shell.keys("Enter")
        until(lambda: shell.shows("selected"), "the selection")
        shell.keys("Right", "Enter")
        screen = until(lambda: shell.shows("12,11"), "the move in the log")
        assert "red pathfinder moves to 12,11" in panel_text(screen)  # wrapped, not cut
        colours = shell.colours()
        assert "48;2;255;224;64" in colours  # the bright cursor
        assert "48;2;28;28;28" in colours and "48;2;44;44;44" in colours  # the chequer

        shell.keys("?")
        screen = until(lambda: shell.shows("Keys (", "quit"), "the help")
        for words in ("move the cursor", "end the turn", "save now", "undo (back", "this help",
                      "quit, saved"):
            assert sum(words in line for line in screen) == 1, words
        assert any("╰" in line for line in screen)  # the box closes inside the 24 lines
        shell.keys("x")  # any key closes it
        until(lambda: not shell.shows("Keys ("), "the help to close")
        footer = until(lambda: (s := shell.text()) and s[-1].strip() and s[-1], "the footer")
        assert "save" in footer and "end turn" in footer  # a game of sides offers both


def test_a_puzzle_offers_no_end_of_turn_and_no_save(tmp_path):
    with pane(tmp_path, "first-steps") as shell:
        footer = until(lambda: (s := shell.shows("player to play")) and s[-1], "the level")
        assert "end turn" not in footer and "save" not in footer
        assert "wait" in footer and "hint" in footer
        shell.keys("?")
        screen = until(lambda: shell.shows("Keys (", "quit"), "the help")
        text = "\n".join(screen)
        assert "step" in text and "hint" in text
        assert "end the turn" not in text and "save now" not in text
        assert "AI's turn" not in text  # no AI plays a level
