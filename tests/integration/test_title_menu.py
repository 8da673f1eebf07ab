"""The title menu from the outside: `rulefront play` with no map, in a real window under a
virtual X server, driven by real key presses (xdotool), judged by screenshots and by the
save of the match it starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from game import ROOT
from game.render import colors
from game.render.menu_window import LEFT, ROW_HEIGHT
from game.session.settings import difficulties
from tests.helpers import until
from tests.integration.xdesk import Desk, x_server

pytestmark = pytest.mark.integration
WIDTH, HEIGHT = 900, 650


def share(image: np.ndarray, color: tuple[int, int, int], box: tuple[int, int, int, int]) -> float:
    """The share of the pixels in box (left, top, right, bottom) that are `color` (+-6)."""
    left, top, right, bottom = box
    part = image[top:bottom, left:right].astype(int)
    return float((np.abs(part - np.array(color)).max(axis=2) <= 6).mean())


def saved_commands(save) -> list:  # type: ignore[no-untyped-def]
    try:
        return json.loads(save.read_text())["commands"]
    except (OSError, ValueError, KeyError):
        return []


def test_the_menu_starts_a_match_against_normal(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    save = tmp_path / "data" / "rulefront" / "autosave.json"
    with x_server() as display:
        desk = Desk(display, tmp_path, (WIDTH, HEIGHT), env)
        game = subprocess.Popen([sys.executable, "-m", "game", "play", "--size",
                                 f"{WIDTH}x{HEIGHT}"], cwd=tmp_path, env=desk.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            window = desk.window("^Rulefront$", game)

            def shot(what: str, check) -> np.ndarray:  # type: ignore[no-untyped-def]
                """The window once `check(image)` holds."""
                return until(lambda: [image for image in [desk.window_shot(window)]
                                      if check(image)], what)[0]

            board = (20, 20, WIDTH - 320, HEIGHT - 20)  # the match's board area
            panel = (WIDTH - 280, 0, WIDTH, HEIGHT)  # the match's side panel
            menu = shot("the title menu", lambda image: share(image, colors.SELECT,
                                                               (25, 0, 40, HEIGHT)) > 0.01)
            # The title menu: the chosen row's yellow bar on the left, the thumbnail of the
            # first entry's map (duel, drawn by the board view: its floor) on the right.
            assert share(menu, colors.FLOOR, (WIDTH // 2, 0, WIDTH, HEIGHT)) > 0.05
            assert share(menu, colors.PANEL, panel) < 0.5  # no match yet
            # New game -> Map, Red, Blue, Start: Red is Human, Blue Normal by default. A key
            # opens the page, a click on its fourth row (Start) starts the match.
            desk.key(window, "Return")
            shot("the New game page", lambda image: share(image, colors.SELECT,
                                                          (25, 130, 40, 160)) > 0.1)
            y = 130 + 3 * ROW_HEIGHT + ROW_HEIGHT // 2  # from the top
            desk.click(window, LEFT + 60, HEIGHT - y)
            match = shot("the match", lambda image: share(image, colors.PANEL, panel) > 0.5)
            assert share(match, colors.FLOOR, board) > 0.2  # the duel board fills the left
            # End red's turn (E asks first when no hero has acted: E again ends it): Normal
            # plays blue's, and every command is autosaved.
            desk.key(window, "e")
            desk.key(window, "e")
            until(lambda: len(saved_commands(save)) >= 3, "Normal's turn in the autosave")
            desk.key(window, "q")  # leave the match: the menu again
            back = shot("the menu again", lambda image: share(image, colors.PANEL, panel) < 0.5)
            assert share(back, colors.SELECT, (25, 0, 40, HEIGHT)) > 0.01
            # Back on the New game page; Escape goes up to the title, and Escape there quits.
            desk.key(window, "Escape")
            desk.key(window, "Escape")
            out, err = game.communicate(timeout=60)
        finally:
            if game.poll() is None:
                game.kill()
                game.wait()
    assert game.returncode == 0, err
    record = json.loads(save.read_text())
    assert record["map"].endswith("duel.png")
    assert record["seats"] == {"red": "human", "blue": difficulties()["Normal"]}
    assert record["commands"][0] == {"type": "EndTurn"}
    assert all(c["type"] != "EndTurn" or i == 0 for i, c in enumerate(record["commands"][:2]))


def test_the_challenges_page_draws_the_stars_won(tmp_path):
    """`rulefront render --menu KEYS` draws the menu as the window does, offscreen: the first
    challenge won in 5 rounds shows three gold stars, the others none."""
    from PIL import Image

    from game.menu.model import stars_for
    from game.menu.pages import new_menu
    from game.render.menu_window import STAR, STAR_EMPTY
    from game.session.settings import Settings

    data = tmp_path / "data" / "rulefront"
    data.mkdir(parents=True)
    first = new_menu(settings=Settings()).challenges[0]
    assert stars_for(first.stars, 5) == 3
    (data / "scores.json").write_text(json.dumps({f"challenge: {first.title}": {"player": 5}}))
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(ROOT),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    picture = tmp_path / "challenges.png"
    done = subprocess.run([sys.executable, "-m", "game", "render", "--menu", "DOWN,DOWN,RETURN",
                           "-o", str(picture), "--size", f"{WIDTH}x{HEIGHT}"], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    image = np.array(Image.open(picture).convert("RGB"))
    rows = [(130 + i * 34, 130 + (i + 1) * 34) for i in range(2)]  # the first two rows
    gold = [share(image, STAR, (340, top, 520, bottom)) for top, bottom in rows]
    grey = [share(image, STAR_EMPTY, (340, top, 520, bottom)) for top, bottom in rows]
    assert gold[0] > 0.01 and grey[0] < 0.005  # three stars won
    assert gold[1] < 0.005 and grey[1] > 0.01  # none yet
