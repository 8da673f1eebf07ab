"""`rulefront online play --text` from the outside: the Textual client in tmux (a real
terminal), keys sent with tmux send-keys, a bot on the other seat of a real server."""

from __future__ import annotations

import pytest

from tests.integration.test_online_play import red_ends_turns
from tests.integration.tmux import rulefront, terminal
from tests.unit.net.running import Served, bot, finish, new_game

pytestmark = pytest.mark.integration


def test_a_seat_in_the_terminal_plays_against_a_bot_and_logs_its_moves(tmp_path):
    server = Served(tmp_path / "games")
    url = server.url
    game = new_game(url, "outpost", 1)
    opponent = bot(url, game, "blue", "random")
    command = rulefront("online", "play", url, game["game"], "--token", game["tokens"]["red"],
                        "--text")
    try:
        with terminal(command, tmp_path, size=(120, 50)) as term:
            term.wait_for("red to play")
            red_ends_turns(url, game["game"], lambda: term.keys("e"), 2)
            # the log panel tells both sides' commands in sentences (wrapped at its width)
            shown = term.wait_for("blue ends the")
            assert "red ends the" in shown
            assert "blue: online" in shown
            term.keys("q")
            assert term.exit_code() == 0
            term.wait_for(f"left game {game['game']}")
    finally:
        finish(opponent)
        server.stop()
