"""Players see the rules at work, in the real terminal client (`rulefront play --text` in a
tmux pane, resumed from a save on crossing where a red hero stands over the IS of WATER IS
STOP): with the hero selected, the cursor on the word says what the push breaks and what that
changes, the rules panel tells fixed rules from word rules and where each sentence stands, and
Enter pushes: the panel marks the rule broken and the log kept in the save tells it,
with its meaning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.commands import EndTurn, Move
from game.levels.loader import load_engine
from game.session.match import make_seats
from game.session.saves import save_game
from game.text.cursor import Cursor
from tests.helpers import until
from tests.integration.test_terminal_in_tmux import pane, panel_text

pytestmark = pytest.mark.integration

HERO = 2  # crossing's red hero at 4,2; two turns bring it over the IS at 7,5


def crossing_save(tmp_path: Path) -> tuple[Path, tuple[int, int]]:
    engine = load_engine("maps/crossing.png", seed=7)
    for command in (Move(HERO, 6, 3), EndTurn(), EndTurn(), Move(HERO, 7, 4)):
        assert engine.submit(command)
    save = tmp_path / "save.json"
    save_game(save, engine, make_seats(engine, {"red": "human", "blue": "random"}, 7), 7)
    cursor = Cursor(engine)
    return save, (cursor.x, cursor.y)


def arrows(start: tuple[int, int], goal: tuple[int, int]) -> list[str]:
    dx, dy = goal[0] - start[0], goal[1] - start[1]
    return (["Right"] * dx if dx > 0 else ["Left"] * -dx) + (["Down"] * dy if dy > 0
                                                             else ["Up"] * -dy)


def test_the_cursor_on_a_word_push_tells_the_rule_it_breaks_and_the_log_tells_it_done(tmp_path):
    save, start = crossing_save(tmp_path)
    with pane(tmp_path, "--resume", str(save), "--save", str(save)) as shell:
        screen = until(lambda: shell.shows("red to play"), "the board")
        panel = panel_text(screen)
        assert "fixed rules" in panel and "word rules" in panel
        assert "WATER IS STOP (6,5)→" in panel  # where the sentence stands
        shell.keys(*arrows(start, (7, 4)), "Enter")
        until(lambda: shell.shows("selected"), "the hero selected")
        shell.keys("Down")  # onto the IS: a push
        screen = until(lambda: shell.shows("WATER IS STOP is broken"), "the push foreseen")
        # the status line, wrapped over the rows above the footer, left of the panel
        status = " ".join(" ".join(line.split("│")[0].split()) for line in screen[-5:-1])
        assert "Enter pushes: WATER IS STOP is broken: water loses STOP, which meant:" in status
        assert "solid" in status
        shell.keys("Enter")
        screen = until(lambda: shell.shows("(broken)"), "the push done")
        shown = panel_text(screen)
        assert "WATER IS STOP (broken)" in shown  # the panel
        assert "WATER IS STOP (6,5)" not in shown
    # the log the app kept (and saved after the push) tells it, meaning and all
    told = [line for entry in json.loads(save.read_text())["log"] for line in entry["lines"]]
    assert "WATER IS STOP is broken: water loses STOP, which meant: solid: no unit walks in, and a push against it is blocked" in told
