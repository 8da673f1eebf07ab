"""The title menu in the terminal, from the outside: `rulefront play --text` in a real
terminal (tmux), driven by key presses, read off the screen and judged by the save of the
match it starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import ROOT
from game.session.settings import difficulties, load_settings
from tests.helpers import until
from tests.integration.tmux import rulefront, terminal


@pytest.fixture
def shell(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    with terminal(rulefront("play", "--text"), tmp_path, env) as made:
        yield made


def saved(save: Path) -> int:
    """How many commands the autosave holds (none while it is not written)."""
    try:
        return len(json.loads(save.read_text())["commands"])
    except (OSError, ValueError, KeyError):
        return 0


def test_the_terminal_menu_starts_a_match_against_normal(shell, tmp_path):
    title = shell.wait_for("Quit")
    for entry in ("New game", "Continue", "Challenges", "Settings", "How to play"):
        assert entry in title
    shell.keys("Enter")
    page = shell.wait_for("Start")
    assert "< Duel >" in page and "< Human >" in page and "< Normal >" in page
    shell.keys("Down", "Down", "Down", "Enter")
    shell.wait_for("red to play")
    shell.keys("e", "e")  # red ends its turn (e asks first: no hero has acted)
    save = tmp_path / "data" / "rulefront" / "autosave.json"
    until(lambda: saved(save) >= 3, "Normal's turn in the autosave")
    shell.keys("q")  # the game saves and the menu comes back where it was
    shell.wait_for("Start")
    shell.keys("Escape")  # up to the title (one Escape at a time: two at once read as Alt)
    shell.wait_for("Continue")
    shell.keys("Escape")
    assert shell.exit_code() == 0
    record = json.loads(save.read_text())
    assert record["seats"] == {"red": "human", "blue": difficulties()["Normal"]}
    assert record["commands"][0] == {"type": "EndTurn"} and len(record["commands"]) >= 3


def test_settings_changed_in_the_terminal_menu_are_kept_in_the_file(shell, tmp_path,
                                                                    monkeypatch):
    shell.wait_for("Quit")
    shell.keys("Up", "Up", "Up", "Enter")  # Settings (three above the bottom)
    shell.wait_for("Animation")
    shell.keys("Down", "Down", "Enter", "Down", "Right")  # sound off, colour-blind
    shell.wait_for("colour-blind")
    shell.keys("Escape")  # up to the title (one Escape at a time: two at once read as Alt)
    shell.wait_for("Continue")
    shell.keys("Escape")
    assert shell.exit_code() == 0
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    settings = load_settings()
    assert (settings.sound, settings.palette) == (False, "colour-blind")


def test_without_a_terminal_play_text_plays_duel_in_plain_text_as_before(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "game", "play", "--text"], input="q\n",
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["rulefront: not a terminal, so playing in plain text "
                                        "(--plain)."]
    assert json.loads((tmp_path / "rulefront" / "autosave.json").read_text())["map"] \
        .endswith("duel.png")


def test_the_terminal_menu_picture_is_drawn_by_the_menu_app(tmp_path, monkeypatch):
    from game.text.menu import menu_svg

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    picture = menu_svg(tmp_path / "menu.svg", ["enter"])
    text = picture.read_text()
    assert text.startswith("<svg") and "New&#160;game" in text and "Normal" in text
