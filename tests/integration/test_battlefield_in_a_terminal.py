"""`rulefront play --text` (the Textual client) as a player meets it, in a tmux pane read with
capture-pane: the cursor on an enemy colours its threat (moves dark blue, strikes dark red),
two humans kill a red sage with the keyboard, the log names the sage in the line that hit it
and again after it died, with round headings, and `--resume` shows the same log."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.levels.loader import load_engine
from game.text.cursor import Cursor
from tests.helpers import draw_map, until
from tests.integration.test_battlefield_under_x import ROWS
from tests.integration.tmux import rulefront, terminal

pytestmark = pytest.mark.integration


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
    with terminal(rulefront("play", str(path), "--text", "--save", str(save)), tmp_path,
                  {"COLORTERM": "truecolor"}) as term:
        term.wait_for("red to play")
        plain = backgrounds(term.colours())
        assert THREAT_MOVE not in plain and THREAT_STRIKE not in plain
        term.keys(*arrows(start, (3, 2)))  # the cursor onto the blue duelist
        until(lambda: THREAT_MOVE in backgrounds(term.colours()), "the duelist's threat")
        assert THREAT_STRIKE in backgrounds(term.colours())
        term.keys("e")
        term.wait_for("press e again")  # the question about unused heroes
        term.keys("e")
        term.wait_for("Hand over to blue")
        term.keys("Enter")
        term.wait_for("blue to play")
        # the cursor is on the duelist still: select it, attack the sage on its left; then
        # the bulwark below the sage, and up onto the sage again
        for key in ("Enter", "Left", "Enter", "Down", "Enter", "Up", "Enter"):
            before = term.colours()
            term.keys(key)  # a player's pace: each key once the last one's redraw is seen
            until(lambda before=before: term.colours() != before, f"the redraw after {key}")
        until(lambda: "red sage dies" in log_of(term.screen()), "the sage's death in the log")
        told = log_of(term.screen())
        assert "blue duelist hits red sage for 5 (2 left)" in told
        assert "Round 1 - red" in told and "Round 1 - blue" in told
        term.keys("q")
        assert term.exit_code() == 0
    lines = [line for entry in json.loads(save.read_text())["log"] for line in entry["lines"]]
    assert "blue duelist hits red sage for 5 (2 left)" in lines and "red sage dies" in lines

    with terminal(rulefront("play", "--resume", str(save), "--text"), tmp_path) as again:
        until(lambda: "red sage dies" in log_of(again.screen()), "the resumed log")
        told = log_of(again.screen())
        assert "blue duelist hits red sage for 5 (2 left)" in told and "Round 1 - blue" in told
        again.keys("q")
        assert again.exit_code() == 0
