"""The title menu's Host and Join, from the outside: `rulefront play` (the window under Xvfb,
keys from xdotool) hosts a game and plays red against a bot that joins from the line it wrote;
`rulefront play --text` (in tmux) joins a game a real server holds, the address, game and
token typed into the Join page."""

from __future__ import annotations

import subprocess
import sys
import urllib.error

import pytest

from game import ROOT
from tests.integration.test_online_play import info, red_turns_ended
from tests.integration.xserver import (
    screenshot,
    virtual_display,
    wait_for_window,
    wait_until,
    xdotool,
)
from tests.unit.net.running import ENV, Served, bot, finish, new_game, wait_for
from tests.unit.text.test_menu import Terminal

pytestmark = pytest.mark.integration
DOWN_TO = {"Host": 6, "Join": 7}  # rows of data/menu.yaml's entries, from the top


def menu_env(tmp_path) -> dict[str, str]:
    env = {**ENV, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("RULEFRONT_HEADLESS", None)
    return env


def served(url: str) -> bool:
    try:
        info(url, "x" * 12)
    except urllib.error.HTTPError:
        return True  # it answered (no such game)
    except OSError:
        return False
    return True


def test_host_in_the_window_starts_a_server_and_plays_red_against_a_bot_that_joins(tmp_path):
    env = menu_env(tmp_path)
    hosted = tmp_path / "data" / "rulefront" / "hosted.txt"
    with virtual_display() as display:
        env["DISPLAY"] = display
        game = subprocess.Popen([sys.executable, "-m", "game", "play", "--no-anim"],
                                cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        opponent = None
        try:
            try:
                window = wait_for_window(display, "^Rulefront$", game)
            except AssertionError as exc:  # say why: a traceback, or the X server gone
                raise AssertionError(f"{exc}: {finish(game)}") from None
            xdotool(display, "windowfocus", "--sync", window)

            def press(*keys: str) -> None:
                for key in keys:
                    xdotool(display, "key", "--window", window, key)

            press(*["Down"] * DOWN_TO["Host"], "Return")  # Host: Map, Open to, Host
            press("Right", "Right", "Down", "Down", "Return")  # duel, frontier, outpost; Host
            if not wait_until(hosted.exists, 30):
                screenshot(display, tmp_path / "host.png")
                raise AssertionError(f"no server was started; the screen: {tmp_path}/host.png")
            lines = hosted.read_text().splitlines()
            url, game_id = lines[1].split()[3:5]
            tokens = {line.rsplit("# ", 1)[1]: line.split("--token ")[1].split()[0]
                      for line in lines if "--token" in line}
            opponent = bot(url, {"game": game_id, "tokens": tokens}, "blue", "random")
            press("Return")  # Play red here

            def red_played(turns: int) -> bool:
                if red_turns_ended(url, game_id) >= turns:
                    return True
                if info(url, game_id)["to_play"] == "red":
                    press("e")
                return False

            for turns in (1, 2):
                wait_for(lambda t=turns: red_played(t), 30)
            assert info(url, game_id)["map"].endswith("outpost.png")
            press("q")  # back to the hosting page, the server still up
            wait_for(lambda: info(url, game_id)["present"] == ["blue"], 20)
            assert served(url)
            press("Escape", "Escape", "Escape")  # Host page, the menu, out
            game.wait(30)
        finally:
            out = finish(game)
            if opponent is not None:
                finish(opponent)
    assert game.returncode == 0, out
    assert not served(url)  # the hosted server stopped with Rulefront


def test_join_in_the_terminal_menu_takes_a_seat_typed_in(tmp_path):
    server = Served(tmp_path / "games")
    url = server.url
    game = new_game(url, "outpost", 1)
    opponent = bot(url, game, "blue", "random")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "PYTHONPATH": str(ROOT), "TERM": "xterm-256color"}
    terminal = Terminal([sys.executable, "-m", "game", "play", "--text"], env, tmp_path)
    try:
        terminal.wait_for("Quit")
        terminal.keys(*["Down"] * DOWN_TO["Join"], "Enter")
        terminal.wait_for("Token")
        for text in (url, game["game"], game["tokens"]["red"]):
            subprocess.run(["tmux", "send-keys", "-t", terminal.name, "-l", text], check=True)
            terminal.keys("Enter")  # on to the next field, then Join
        terminal.keys("Enter")
        terminal.wait_for("red to play")

        def red_played(turns: int) -> bool:
            if red_turns_ended(url, game["game"]) >= turns:
                return True
            if info(url, game["game"])["to_play"] == "red":
                terminal.keys("e")
            return False

        for turns in (1, 2):
            wait_for(lambda t=turns: red_played(t), 30)
        terminal.wait_for("blue ends the")
        terminal.keys("q")
        terminal.wait_for("Token")  # the Join page again
        terminal.keys("Escape", "Escape")
        terminal.wait_for("EXITED=0")
    finally:
        terminal.close()
        finish(opponent)
        server.stop()


