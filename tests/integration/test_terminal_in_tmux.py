"""`rulefront play --text` as a player meets it: the real command in an 80x24 tmux pane, keys
sent with `tmux send-keys`, the screen read back with `capture-pane` (its text, and with -e
its colours). The log wraps its sentences instead of cutting them, `?` shows every key that
applies inside the 80x24 screen, the cursor is bright, neighbouring cells differ in ground,
and a puzzle offers no end of turn and no save."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from tests.helpers import draw_cells, until
from tests.integration.tmux import Terminal, rulefront, terminal

pytestmark = pytest.mark.integration

PANEL = 51  # the column where the side panel starts at 80 columns (its border)


def pane(tmp_path: Path, *args: str) -> contextlib.AbstractContextManager[Terminal]:
    return terminal(rulefront("play", *args, "--text"), tmp_path, {"COLORTERM": "truecolor"},
                    (80, 24))


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
        footer = until(lambda: (s := shell.screen().splitlines()) and s[-1].strip() and s[-1],
                       "the footer")
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
