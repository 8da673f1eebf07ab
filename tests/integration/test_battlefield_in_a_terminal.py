"""`rulefront play --text` (the Textual client) as a player meets it, in a tmux pane read with
capture-pane: the cursor on an enemy colours its threat (moves dark blue, strikes dark red),
two humans kill a red sage with the keyboard, the log names the sage in the line that hit it
and again after it died, with round headings, and `--resume` shows the same log."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from game.levels.loader import load_engine
from game.text.cursor import Cursor
from tests.helpers import draw_map
from tests.integration.test_battlefield_under_x import ROWS
from tests.integration.test_editor_under_x import until
from tests.integration.test_thinking_from_outside import Tmux

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]

def log_of(screen: str) -> str:
    """The panel's text (right of its border), its wrapped rows joined by spaces."""
    return " ".join(" ".join(line.rpartition("│")[2].split()) for line in screen.splitlines()
                    if "│" in line)


def backgrounds(coloured: str) -> set[str]:
    """The true-colour backgrounds (r;g;b) in a capture-pane -e screen."""
    return set(re.findall(r"48;2;(\d+;\d+;\d+)", coloured))


THREAT_MOVE, THREAT_STRIKE = "30;52;102", "92;30;30"  # game/text/app.py's dark blue and red


def arrows(start: tuple[int, int], goal: tuple[int, int]) -> list[str]:
    dx, dy = goal[0] - start[0], goal[1] - start[1]
    return ["Right" if dx > 0 else "Left"] * abs(dx) + ["Down" if dy > 0 else "Up"] * abs(dy)


def test_the_threat_and_the_log_in_the_terminal_client_and_after_a_resume(tmp_path: Path):
    path = draw_map(tmp_path / "field.png", ROWS)
    cursor = Cursor(load_engine(path))
    start = (cursor.x, cursor.y)  # where the cursor starts: red's first unit
    save = tmp_path / "save.json"
    term = Tmux(tmp_path)
    term.env["COLORTERM"] = "truecolor"
    term.start(["python", "-m", "game", "play", str(path), "--text", "--save", str(save)])
    try:
        until(lambda: "red to play" in term.screen(), "the Textual client")
        plain = backgrounds(term.tmux("capture-pane", "-p", "-e"))
        assert THREAT_MOVE not in plain and THREAT_STRIKE not in plain
        term.keys(*arrows(start, (3, 2)))  # the cursor onto the blue duelist
        until(lambda: THREAT_MOVE in backgrounds(term.tmux("capture-pane", "-p", "-e")),
              "the duelist's threat")
        assert THREAT_STRIKE in backgrounds(term.tmux("capture-pane", "-p", "-e"))
        term.keys("e")
        until(lambda: "press e again" in term.screen(), "the question about unused heroes")
        term.keys("e")
        until(lambda: "Hand over to blue" in term.screen(), "the hand-over screen")
        term.keys("Enter")
        until(lambda: "blue to play" in term.screen(), "blue's turn")
        # the cursor is on the duelist still: select it, attack the sage on its left; then
        # the bulwark below the sage, and up onto the sage again
        for key in ("Enter", "Left", "Enter", "Down", "Enter", "Up", "Enter"):
            term.keys(key)
            time.sleep(0.2)  # a player's pace: each key after the last one's redraw
        until(lambda: "red sage dies" in log_of(term.screen()), "the sage's death in the log")
        told = log_of(term.screen())
        assert "blue duelist hits red sage for 5 (2 left)" in told
        assert "Round 1 - red" in told and "Round 1 - blue" in told
        term.keys("q")
        until(lambda: "rulefront-exit=0" in term.screen(), "the client to quit")
    finally:
        term.stop()
    lines = [line for entry in json.loads(save.read_text())["log"] for line in entry["lines"]]
    assert "blue duelist hits red sage for 5 (2 left)" in lines and "red sage dies" in lines

    again = Tmux(tmp_path)
    again.start(["python", "-m", "game", "play", "--resume", str(save), "--text"])
    try:
        until(lambda: "red sage dies" in log_of(again.screen()), "the resumed log")
        told = log_of(again.screen())
        assert "blue duelist hits red sage for 5 (2 left)" in told and "Round 1 - blue" in told
        again.keys("q")
    finally:
        again.stop()
