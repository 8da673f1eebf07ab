"""`rulefront online play` from the outside: a real server, a bot on one seat, and the player's
window (under Xvfb, keys sent by xdotool) or terminal client (in tmux) on the other. The local
game mirrors the server's: the player's end of turn reaches the server only if the window
applied every command the bot played before it (else the local game says it is not red's
turn and sends nothing)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from tests.helpers import until
from tests.integration.xdesk import Desk, x_server
from tests.unit.net.running import ENV, Served, bot, finish, get_json, new_game

pytestmark = pytest.mark.integration

ROUNDS = 3  # red's turns ended from the client, each after a whole turn of the bot's


def red_turns_ended(url: str, game: str) -> int:
    record = get_json(f"{url}api/games/{game}/replay")
    return sum(1 for command, side in zip(record["commands"], sides(record), strict=False)
               if side == "red" and command.get("type") == "EndTurn")


def sides(record: dict) -> list[str]:
    """Who played each command of a replay: red until its end of turn, then blue, and so on."""
    who, side = [], "red"
    for command in record["commands"]:
        who.append(side)
        if command.get("type") == "EndTurn":
            side = "blue" if side == "red" else "red"
    return who


def info(url: str, game: str) -> dict:
    return get_json(f"{url}api/games/{game}")


def red_ends_turns(url: str, game: str, press: Callable[[], None], turns: int) -> None:
    """Red's end of turn pressed in the client until the server has `turns` of them: the key
    is refused locally until the client has applied the bot's whole turn before it."""
    def ended(turn: int) -> bool:
        if red_turns_ended(url, game) >= turn:
            return True
        if info(url, game)["to_play"] == "red":
            press()
        return False

    for turn in range(1, turns + 1):
        until(lambda t=turn: ended(t), f"red's end of turn {turn} on the server")


def test_a_seat_in_the_window_plays_against_a_bot_over_the_network(tmp_path):
    server = Served(tmp_path / "games")
    url = server.url
    game = new_game(url, "outpost", 1)
    opponent = bot(url, game, "blue", "random")
    with x_server() as display:
        desk = Desk(display, tmp_path, env=ENV)
        window = subprocess.Popen(
            [sys.executable, "-m", "game", "online", "play", url, game["game"], "--token",
             game["tokens"]["red"], "--no-anim", "--fps", "20"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=desk.env)
        try:
            window_id = desk.window("^Rulefront online", window)
            red_ends_turns(url, game["game"], lambda: desk.key(window_id, "e"), ROUNDS)
            shown = info(url, game["game"])
            assert shown["commands"] > 2 * ROUNDS  # the bot moved between red's turns
            assert window.poll() is None, finish(window)
            desk.key(window_id, "q")  # xdotool's complaint at the release after q is no failure
            window.wait(60)
        finally:
            out = finish(window)
            finish(opponent)
            server.stop()
    assert window.returncode == 0, out
    assert f"left game {game['game']}" in out


def test_a_token_that_opens_no_seat_or_an_unknown_game_is_one_sentence_and_exit_2(tmp_path):
    server = Served(tmp_path / "games")
    try:
        game = new_game(server.url, "outpost", 1)
        tried = {
            "token": ["--token", "not-a-token"],
            "game": ["--token", game["tokens"]["red"]],
        }
        done = {}
        for what, extra in tried.items():
            which = game["game"] if what == "token" else "AAAAAAAAAAAA"
            done[what] = subprocess.run(
                [sys.executable, "-m", "game", "online", "play", server.url, which, *extra],
                capture_output=True, text=True, env=ENV, timeout=60)
    finally:
        server.stop()
    for what, result in done.items():
        assert result.returncode == 2, (what, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr
    assert "token opens no seat" in done["token"].stderr
    assert "no game AAAAAAAAAAAA" in done["game"].stderr
