"""The title menu's Host and Join pages without a display: text typed and pasted into Join's
fields, the seat it launches, and Host's server started, written down and stopped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from game import ROOT
from game.menu.model import Launch
from game.menu.online import HOSTED
from game.menu.pages import new_menu
from tests.helpers import until


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def press(menu, *keys: str) -> None:
    for key in keys:
        menu.key(key)


def opened(label: str):
    menu = new_menu()
    menu.click([row.label for row in menu.view().rows].index(label))
    return menu


def details(menu) -> dict[str, str]:
    return {row.label: row.detail for row in menu.view().rows}


def test_join_takes_typed_text_with_its_case_and_letters_do_not_move_the_cursor(home):
    menu = opened("Join")
    for char in "http://h:1/":
        menu.key(char.upper())  # the window sends the key, then the text
        menu.text(char)
    menu.key("Q")  # on a text row Q is a letter, not Back
    menu.text("q")
    menu.key("BACKSPACE")  # erases, stays on the page
    menu.key("RETURN")  # on to Game
    menu.text("AbCdEfGhIj-_")
    menu.key("DOWN")
    menu.text("Secret")
    assert details(menu) == {"Server": "http://h:1/", "Game": "AbCdEfGhIj-_", "Token": "Secret",
                             "Join": ""}
    menu.key("DOWN")
    menu.key("RETURN")
    assert menu.take_launch() == Launch("online", Path("AbCdEfGhIj-_"), url="http://h:1/",
                                        game="AbCdEfGhIj-_", token="Secret")


def test_a_pasted_join_line_fills_all_three_and_a_bad_game_id_is_a_sentence(home):
    menu = opened("Join")
    menu.text("rulefront online play http://10.0.0.2:8765/ ZZZZZZZZZZZZ --token t0k3n   # blue")
    assert details(menu)["Server"] == "http://10.0.0.2:8765/"
    assert (details(menu)["Game"], details(menu)["Token"]) == ("ZZZZZZZZZZZZ", "t0k3n")
    press(menu, "DOWN", "DOWN", *["BACKSPACE"] * 5, "DOWN", "RETURN")  # no token, Join
    assert menu.take_launch() is None and menu.message == "Give the token first."
    press(menu, "UP", "UP")
    menu.key("BACKSPACE")  # the game id one character short
    menu.key("DOWN")
    menu.text("t")
    press(menu, "DOWN", "RETURN")
    assert menu.take_launch() is None and "is not a game id" in menu.message
    menu.key("ESCAPE")
    assert menu.view().title == "Rulefront"


def test_host_starts_a_server_makes_a_game_writes_the_lines_and_stop_ends_it(home):
    menu = opened("Host")
    assert list(details(menu)) == ["Map", "Open to", "Host"]
    for _ in range(100):  # to outpost among the shipped maps, whatever their number
        if details(menu)["Map"] == "< Outpost >":
            break
        menu.key("RIGHT")
    for key in ("DOWN", "DOWN", "RETURN"):  # on this machine
        menu.key(key)
    view = menu.view()
    assert view.title.startswith("Hosting ") and view.message == ""
    hosted = HOSTED[-1]
    try:
        assert [row.label for row in view.rows] == ["Play red here", "Play blue here",
                                                    "Stop hosting"]
        with urllib.request.urlopen(f"{hosted.url}api/games/{hosted.game}") as answer:
            assert json.loads(answer.read())["map"].endswith("outpost.png")
        lines = hosted.written.read_text()
        assert all(f"--token {token}" in lines for token in hosted.tokens.values())
        assert any(hosted.tokens["blue"] in line for line in view.about)
        menu.key("DOWN")
        menu.key("RETURN")
        assert menu.take_launch() == Launch("online", Path(hosted.game), url=hosted.url,
                                            game=hosted.game, token=hosted.tokens["blue"],
                                            seat="blue")
        menu.key("DOWN")
        menu.key("RETURN")  # Stop hosting
        assert hosted.process.poll() is not None and hosted not in HOSTED
        assert "server stopped" in menu.message
    finally:
        hosted.stop()


def test_a_hosted_server_stops_when_rulefront_is_killed(home):
    """kill -9 runs no atexit: the server must not outlive the Rulefront that started it."""
    code = ("from game.menu.online import host; import time; "
            "print(host('outpost').url, flush=True); time.sleep(60)")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(home / "data")}
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env=env)
    try:
        assert parent.stdout is not None
        url = parent.stdout.readline().strip()
        assert reachable(url)
    finally:
        parent.kill()
        parent.wait()
    until(lambda: not reachable(url), "the hosted server to stop with its parent")


def reachable(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}api/maps", timeout=30):
            return True
    except OSError:
        return False
