"""The title menu in the terminal, from the outside: `rulefront play --text` in a real
terminal (tmux), driven by key presses, read off the screen and judged by the save of the
match it starts."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game import ROOT
from game.session.settings import difficulties, load_settings


class Terminal:
    """A tmux session of its own running one command; keys in, the screen's text out."""

    def __init__(self, command: list[str], env: dict[str, str], cwd: Path) -> None:
        if shutil.which("tmux") is None:
            pytest.fail("tmux is not installed: apt-get install tmux")
        self.name = f"rulefront-menu-{os.getpid()}-{time.monotonic_ns()}"
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        line = f"cd {shlex.quote(str(cwd))} && env {exports} {shlex.join(command)}; " \
               "echo EXITED=$?; sleep 60"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "100", "-y", "32",
                        line], check=True)

    def keys(self, *keys: str) -> None:
        for key in keys:
            subprocess.run(["tmux", "send-keys", "-t", self.name, key], check=True)
            time.sleep(0.15)  # one key at a time, as a player types

    def screen(self) -> str:
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True, check=True).stdout

    def wait_for(self, words: str, seconds: float = 30.0) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = self.screen()
            if words in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{words!r} never showed; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.fixture
def terminal(tmp_path):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    made = Terminal([sys.executable, "-m", "game", "play", "--text"], env, tmp_path)
    yield made
    made.close()


def test_the_terminal_menu_starts_a_match_against_normal(terminal, tmp_path):
    title = terminal.wait_for("Quit")
    for entry in ("New game", "Continue", "Challenges", "Settings", "How to play"):
        assert entry in title
    terminal.keys("Enter")
    page = terminal.wait_for("Start")
    assert "< Duel >" in page and "< Human >" in page and "< Normal >" in page
    terminal.keys("Down", "Down", "Down", "Enter")
    terminal.wait_for("red to play")
    terminal.keys("e", "e")  # red ends its turn (e asks first: no hero has acted)
    save = tmp_path / "data" / "rulefront" / "autosave.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
            save.exists() and len(json.loads(save.read_text())["commands"]) >= 3):
        time.sleep(0.3)
    terminal.keys("q")  # the game saves and the menu comes back where it was
    terminal.wait_for("Start")
    terminal.keys("Escape", "Escape")
    terminal.wait_for("EXITED=0")
    record = json.loads(save.read_text())
    assert record["seats"] == {"red": "human", "blue": difficulties()["Normal"]}
    assert record["commands"][0] == {"type": "EndTurn"} and len(record["commands"]) >= 3


def test_settings_changed_in_the_terminal_menu_are_kept_in_the_file(terminal, tmp_path,
                                                                    monkeypatch):
    terminal.wait_for("Quit")
    terminal.keys("Up", "Up", "Up", "Enter")  # Settings (three above the bottom)
    terminal.wait_for("Animation")
    terminal.keys("Down", "Down", "Enter", "Down", "Right")  # sound off, colour-blind
    terminal.wait_for("colour-blind")
    terminal.keys("Escape", "Escape")
    terminal.wait_for("EXITED=0")
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
