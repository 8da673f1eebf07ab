"""A shipped challenge played from the title menu, from the outside: in a real terminal (tmux)
and in a real window (Xvfb, xdotool), the Challenges page lists it, the solver's line played by
keys wins it, and the page shows its stars when the game is over."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game import MAPS
from game.levels.loader import load_game_map
from game.menu.pages import new_menu
from game.render.layout import Layout
from game.render.menu_window import ROW_HEIGHT, STAR, STAR_EMPTY
from tests.helpers import until
from tests.integration.tmux import rulefront, terminal
from tests.integration.xdesk import Desk, x_server

pytestmark = pytest.mark.integration


def saved(path: Path) -> dict | None:
    """The autosave's record, once it is written whole."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def challenge_row(title: str, home: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """The row of `title` on the Challenges page, as the menu builds it."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    shipped = sorted((MAPS / "challenges").glob("*.png"))
    return len(new_menu().challenges) + [load_game_map(p).name for p in shipped].index(title)


def test_flag_day_won_in_the_terminal_menu_earns_three_stars(tmp_path, monkeypatch):
    row = challenge_row("Flag day", tmp_path, monkeypatch)
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    with terminal(rulefront("play", "--text"), tmp_path, env, size=(110, 36)) as shell:
        shell.wait_for("Quit")
        shell.keys("Down", "Down", "Enter")  # Challenges
        shell.wait_for("Flag day")
        for _ in range(row):
            shell.keys("Down")
        page = shell.wait_for("flag is not", "You play red against")
        assert "Win this turn" in page
        shell.keys("Enter")
        game = shell.wait_for("red must win this turn", "Challenge: Win this turn.")
        assert "You play" not in game
        # the pathfinder (the cursor starts on it) pushes WIN down into FLAG IS STOP ...
        shell.keys("Enter")
        shell.wait_for("red pathfinder selected")
        shell.keys("Down", "Enter")
        shell.wait_for("FLAIS WIN", "mp 4")  # the words read FLAG IS WIN on the board
        # ... and walks onto the flag, which now wins
        shell.keys("Right", "Down", "Down", "Down", "Enter")
        shell.wait_for("game over: red (a red hero reached a WIN cell)")
        shell.keys("q")
        menu = shell.wait_for("Challenge won in 2 commands: 3 stars", "Flag day")
        line = next(text for text in menu.splitlines() if "Flag day" in text)
        assert "***" in line and "2 commands" in line
        shell.keys("Escape")
        shell.wait_for("Continue")
        shell.keys("Escape")
        assert shell.exit_code() == 0
    scores = json.loads((tmp_path / "data" / "rulefront" / "scores.json").read_text())
    assert list(scores["challenge: Flag day"].values()) == [2]


def test_flag_day_won_in_the_window_menu_shows_three_gold_stars(tmp_path, monkeypatch):
    width, height = 900, 650
    row = challenge_row("Flag day", tmp_path, monkeypatch)
    game_map = load_game_map("flag-day")
    lay = Layout(width, height, game_map.width, game_map.height)
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    scores = tmp_path / "data" / "rulefront" / "scores.json"
    save = tmp_path / "data" / "rulefront" / "autosave.json"

    def stars(image: np.ndarray, index: int, colour: tuple[int, int, int] = STAR) -> float:
        """The share of row `index`'s star box drawn in `colour` (gold: won)."""
        top = 130 + index * ROW_HEIGHT  # no scrolling: the page's first rows fit
        part = image[top:top + ROW_HEIGHT, 340:520].astype(int)
        return float((np.abs(part - np.array(colour)).max(axis=2) <= 6).mean())

    with x_server() as display:
        desk = Desk(display, tmp_path, (width, height), env)
        game = subprocess.Popen([sys.executable, "-m", "game", "play", "--size",
                                 f"{width}x{height}"], cwd=tmp_path, env=desk.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            window = desk.window("^Rulefront$", game)
            desk.key(window, "Down", "Down", "Return")  # Challenges
            assert row < (height - 130 - 80) // ROW_HEIGHT  # the row shows without scrolling
            until(lambda: stars(desk.window_shot(window), 0, STAR_EMPTY) > 0.01 or None,
                  "the Challenges page (grey stars: none won)")
            desk.key(window, *["Down"] * row, "Return")
            desk.window("^Rulefront - flag-day", game)
            before = desk.window_shot(window)
            desk.click(window, *lay.cell_center(4, 1))  # the red pathfinder
            desk.click(window, *lay.cell_center(4, 2))  # pushes WIN into FLAG IS STOP
            until(lambda: np.abs(desk.window_shot(window).astype(int)
                                 - before.astype(int)).max() > 40 or None, "the push drawn")
            desk.click(window, *lay.cell_center(5, 5))  # and walks onto the flag
            until(lambda: (saved(save) or {}).get("result") or None, "the win saved")
            desk.key(window, "q")  # the game is over: back to the Challenges page
            until(lambda: stars(desk.window_shot(window), row) > 0.01 or None,
                  "three gold stars on the Flag day row")
            desk.key(window, "Escape")
            desk.key(window, "Escape")
            out, err = game.communicate(timeout=60)
        finally:
            if game.poll() is None:
                game.kill()
                game.communicate()
    assert game.returncode == 0, err
    table = json.loads(scores.read_text())
    assert list(table["challenge: Flag day"].values()) == [2]
