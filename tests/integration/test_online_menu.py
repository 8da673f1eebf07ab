"""The title menu's Host and Join, from the outside: `rulefront play` (the window under Xvfb,
keys from xdotool) hosts a game and plays red against a bot that joins from the line it wrote;
`rulefront play --text` (in tmux) joins a game a real server holds, the address, game and
token typed into the Join page."""

from __future__ import annotations

import subprocess
import sys
import urllib.error

import pytest
from PIL import Image

from game.menu.pages import new_menu
from tests.helpers import until
from tests.integration.test_online_play import info, red_ends_turns
from tests.integration.tmux import rulefront, terminal
from tests.integration.xdesk import Desk, x_server
from tests.unit.net.running import ENV, Served, bot, finish, new_game

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
    hosted = tmp_path / "data" / "rulefront" / "hosted.txt"
    with x_server() as display:
        desk = Desk(display, tmp_path, env=menu_env(tmp_path))
        game = subprocess.Popen([sys.executable, "-m", "game", "play", "--no-anim"],
                                cwd=tmp_path, env=desk.env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        opponent = None
        try:
            window = desk.window("^Rulefront$", game)

            def press(*keys: str) -> None:
                desk.key(window, *keys)

            press(*["Down"] * DOWN_TO["Host"], "Return")  # Host: Map, Open to, Host
            # from duel (the default) right to outpost among the maps Host lists, then Host
            names = [name for name, _path, _map in new_menu().maps_of(("skirmish",), sides=2)]
            press(*["Right"] * (names.index("outpost") - names.index("duel")), "Down", "Down",
                  "Return")
            try:
                until(hosted.exists, "the hosted server's line")
            except AssertionError:
                Image.fromarray(desk.shot()).save(tmp_path / "host.png")
                raise AssertionError(f"no server was started; the screen: {tmp_path}/host.png") \
                    from None
            lines = hosted.read_text().splitlines()
            url, game_id = lines[1].split()[3:5]
            tokens = {line.rsplit("# ", 1)[1]: line.split("--token ")[1].split()[0]
                      for line in lines if "--token" in line}
            opponent = bot(url, {"game": game_id, "tokens": tokens}, "blue", "random")
            press("Return")  # Play red here
            red_ends_turns(url, game_id, lambda: press("e"), 2)
            assert info(url, game_id)["map"].endswith("outpost.png")
            press("q")  # back to the hosting page, the server still up
            until(lambda: info(url, game_id)["present"] == ["blue"], "red to leave the game")
            assert served(url)
            press("Escape", "Escape", "Escape")  # Host page, the menu, out
            game.wait(60)
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
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    try:
        with terminal(rulefront("play", "--text"), tmp_path, env) as term:
            term.wait_for("Quit")
            term.keys(*["Down"] * DOWN_TO["Join"], "Enter")
            term.wait_for("Token")
            for text in (url, game["game"], game["tokens"]["red"]):
                term.type(text)
                term.keys("Enter")  # on to the next field, then Join
            term.keys("Enter")
            term.wait_for("red to play")
            red_ends_turns(url, game["game"], lambda: term.keys("e"), 2)
            term.wait_for("blue ends the")
            term.keys("q")
            term.wait_for("Token")  # the Join page again
            term.keys("Escape")  # one Escape at a time: two at once read as Alt
            term.wait_for("Continue")
            term.keys("Escape")
            assert term.exit_code() == 0
    finally:
        finish(opponent)
        server.stop()
