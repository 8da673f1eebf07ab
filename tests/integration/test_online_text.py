"""`rulefront online play --text` from the outside: the Textual client in tmux (a real
terminal), keys sent with tmux send-keys, a bot on the other seat of a real server."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import uuid

import pytest

from tests.integration.test_online_play import info, red_turns_ended
from tests.unit.net.running import ENV, Served, bot, finish, new_game, wait_for

pytestmark = pytest.mark.integration


def test_a_seat_in_the_terminal_plays_against_a_bot_and_logs_its_moves(tmp_path):
    if shutil.which("tmux") is None:
        pytest.fail("tmux is needed to drive the terminal client from the outside")
    tmux = ["tmux", "-L", f"rulefront-test-{uuid.uuid4().hex[:8]}"]  # a tmux server of its own
    server = Served(tmp_path / "games")
    url = server.url
    game = new_game(url, "outpost", 1)
    opponent = bot(url, game, "blue", "random")
    command = shlex.join([sys.executable, "-m", "game", "online", "play", url, game["game"],
                          "--token", game["tokens"]["red"], "--text"])
    done = tmp_path / "done.txt"
    try:
        subprocess.run([*tmux, "new-session", "-d", "-s", "play", "-x", "120", "-y", "50",
                        f"{command}; echo $? > {shlex.quote(str(done))}; sleep 60"],
                       env=ENV, check=True)

        def screen() -> str:
            return subprocess.run([*tmux, "capture-pane", "-p", "-t", "play"],
                                  capture_output=True, text=True).stdout

        def red_played(turns: int) -> bool:
            if red_turns_ended(url, game["game"]) >= turns:
                return True
            if info(url, game["game"])["to_play"] == "red":
                subprocess.run([*tmux, "send-keys", "-t", "play", "e"], check=True)
            return False

        wait_for(lambda: "red to play" in screen(), 30)
        for turns in (1, 2):  # the second needs the bot's whole turn applied in the client
            wait_for(lambda t=turns: red_played(t), 20)
        # the log panel tells both sides' commands in sentences (wrapped at its width)
        wait_for(lambda: "blue ends the" in screen(), 10)
        shown = screen()
        assert "red ends the" in shown
        assert "blue: online" in shown
        subprocess.run([*tmux, "send-keys", "-t", "play", "q"], check=True)
        wait_for(done.exists, 20)
        assert done.read_text().strip() == "0"
        wait_for(lambda: f"left game {game['game']}" in screen(), 10)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        finish(opponent)
        server.stop()
