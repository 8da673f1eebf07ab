"""`rulefront serve` and its command-line clients, driven from the outside: a real server in a
subprocess on a free loopback port, real `rulefront online ...` processes."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from pathlib import Path

from tests.helpers import until
from tests.unit.net.running import (
    Served,
    bot,
    get_json,
    log_lines,
    new_game,
    rulefront,
    start,
)


def test_two_bots_play_to_the_end_a_spectator_sees_every_event_and_the_replay_verifies(
        tmp_path: Path) -> None:
    server = Served(tmp_path / "data")
    try:
        game = new_game(server.url, "duel", 3)
        watcher = start("online", "watch", server.url, game["game"], "--json")
        red, blue = bot(server.url, game, "red", "heuristic"), bot(server.url, game, "blue",
                                                                   "random")
        results = [json.loads(p.communicate(timeout=120)[0]) for p in (red, blue)]
        seen = [json.loads(line) for line in watcher.communicate(timeout=60)[0].splitlines()]
        replay = tmp_path / "game.json"
        done = rulefront("online", "replay", server.url, game["game"], "-o", str(replay))
        assert done.returncode == 0, done.stderr
        verdict = rulefront("replay", str(replay), "--json")
        told = rulefront("online", "watch", server.url, game["game"])  # in sentences
        counted = rulefront("online", "games", server.url)
        with urllib.request.urlopen(f"{server.url}api/games") as answer:
            listed = json.loads(answer.read())
    finally:
        server.stop()
    assert red.returncode == blue.returncode == 0
    assert results[0]["winner"] == results[1]["winner"] == "red"
    recorded = json.loads(replay.read_text())
    played = [m for m in seen if m["type"] == "played"]
    assert [m["n"] for m in played] == list(range(1, len(recorded["commands"]) + 1))
    assert [m["command"] for m in played] == recorded["commands"]
    assert seen[0]["type"] == "joined" and seen[-1]["type"] == "ended"
    assert any(e["type"] == "Won" for e in played[-1]["events"])
    assert json.loads(verdict.stdout)["verified"] is True, verdict.stdout + verdict.stderr
    assert recorded["result"]["winner"] == "red"
    assert [g["game"] for g in listed] == [game["game"]] and listed[0]["result"] is not None
    assert (tmp_path / "data" / "journal.jsonl").read_bytes() == b""  # stopped cleanly
    # A hero killed is named by its class, as it was before the blow ("hits blue sage for 6
    # (0 left); blue sage dies"), never by its kind alone once the replica has removed it.
    assert told.returncode == 0, told.stderr
    assert counted.stdout.splitlines()[-1] == "1 game."  # not "1 games."
    kills = [line for line in told.stdout.splitlines() if "(0 left)" in line]
    assert kills and "every blue hero fell" in told.stdout
    assert not [line for line in kills if "blue hero for" in line or "blue hero dies" in line]


def test_a_wrong_token_is_refused_in_one_sentence_and_the_server_lives_on(
        tmp_path: Path) -> None:
    server = Served(tmp_path / "data")
    try:
        game = new_game(server.url, "duel", 1)
        wrong = rulefront("online", "bot", server.url, game["game"], "--seat", "red",
                          "--token", game["tokens"]["blue"], "--ai", "random")
        unknown = rulefront("online", "watch", server.url, "A" * 12)
        listed = rulefront("online", "games", server.url, "--json")
    finally:
        err = server.stop()
    assert wrong.returncode == 2 and wrong.stdout == ""
    assert wrong.stderr.count("\n") == 1 and "token does not open seat 'red'" in wrong.stderr
    assert unknown.returncode == 2 and "no game AAAAAAAAAAAA" in unknown.stderr
    assert listed.returncode == 0 and json.loads(listed.stdout)[0]["game"] == game["game"]
    assert "Traceback" not in err


def test_kill_9_mid_game_and_a_restart_on_the_same_data_finish_the_game_exactly(
        tmp_path: Path) -> None:
    """The bots reconnect by themselves; no command is lost or applied twice, so the game is
    move for move the one `rulefront match` plays offline with the same seed."""
    data = tmp_path / "data"
    server = Served(data)
    game = new_game(server.url, "duel", 7)
    red, blue = bot(server.url, game, "red", "heuristic"), bot(server.url, game, "blue",
                                                                   "random")
    watcher = start("online", "watch", server.url, game["game"], "--json")
    try:
        until(lambda: len(log_lines(data, game["game"])) >= 30, "30 commands in the log", 120)
        server.kill()
        killed_at = len(log_lines(data, game["game"]))
        server = Served(data, server.port)
        results = [json.loads(p.communicate(timeout=180)[0]) for p in (red, blue)]
        seen = [json.loads(line) for line in watcher.communicate(timeout=60)[0].splitlines()]
        replay = tmp_path / "online.json"
        assert rulefront("online", "replay", server.url, game["game"], "-o",
                         str(replay)).returncode == 0
    finally:
        for process in (red, blue, watcher):
            process.kill()
        err = server.stop()
    offline = tmp_path / "offline.json"
    rulefront("match", "duel", "--red", "heuristic", "--blue", "random", "--seed", "7",
              "--replay", str(offline))
    lines = log_lines(data, game["game"])
    assert killed_at < len(lines)
    assert [line["n"] for line in lines] == list(range(1, len(lines) + 1))
    assert len({line["id"] for line in lines}) == len(lines)
    online_commands = json.loads(replay.read_text())["commands"]
    assert online_commands == json.loads(offline.read_text())["commands"]
    assert [line["command"] for line in lines] == online_commands
    played = [m for m in seen if m["type"] == "played"]  # the spectator reconnected too
    assert [m["n"] for m in played] == list(range(1, len(lines) + 1))
    assert [m["command"] for m in played] == online_commands and seen[-1]["type"] == "ended"
    assert results[0]["reconnects"] >= 1 and results[0]["winner"] == results[1]["winner"]
    assert json.loads(rulefront("replay", str(replay), "--json").stdout)["verified"] is True
    assert "Traceback" not in err


def test_a_side_that_stays_away_past_the_clock_forfeits_and_the_replay_says_so(
        tmp_path: Path) -> None:
    """Nobody sits: red, to play first, forfeits once its second is up (whoever joined would
    have to start faster than the clock, which a loaded machine does not promise); blue's
    bot, joining after, is told it won."""
    server = Served(tmp_path / "data")
    try:
        game = new_game(server.url, "duel", 4, "--clock", "1")
        until(lambda: get_json(f"{server.url}api/games/{game['game']}")["result"],
              "the game to end on the clock")
        blue = bot(server.url, game, "blue", "heuristic")
        result = json.loads(blue.communicate(timeout=60)[0])
        replay = tmp_path / "forfeit.json"
        rulefront("online", "replay", server.url, game["game"], "-o", str(replay))
    finally:
        server.stop()
    assert result["winner"] == "blue" and result["forfeit"]["side"] == "red"
    assert "stayed away longer than the game's clock (1 s)" in result["reason"]
    verdict = json.loads(rulefront("replay", str(replay), "--json").stdout)
    assert verdict["verified"] is True and verdict["result"]["winner"] == "blue"


RAISER = '''
class Raiser:
    """Plays the first legal action three times, then fails."""

    def choose(self, engine, rng, budget):
        if len(engine.history) >= 3:
            raise ValueError("lost its way")
        return engine.legal_actions()[0]
'''


def test_a_plugin_ai_plays_a_seat_and_its_failure_is_a_forfeit_the_replay_keeps(
        tmp_path: Path) -> None:
    (tmp_path / "netbots.py").write_text(RAISER)
    server = Served(tmp_path / "data")
    try:
        game = new_game(server.url, "duel", 5)
        red = start("online", "bot", server.url, game["game"], "--seat", "red", "--token",
                    game["tokens"]["red"], "--ai", "netbots:Raiser", "--json",
                    pythonpath=str(tmp_path))
        blue = bot(server.url, game, "blue", "random")
        results = [json.loads(p.communicate(timeout=120)[0]) for p in (red, blue)]
        replay = tmp_path / "plugin.json"
        rulefront("online", "replay", server.url, game["game"], "-o", str(replay))
    finally:
        server.stop()
    forfeit = results[0]["forfeit"]
    assert forfeit["side"] == "red" and "raised ValueError: lost its way" in forfeit["reason"]
    assert results[0]["winner"] == results[1]["winner"] == "blue"
    recorded = json.loads(replay.read_text())
    assert len(recorded["commands"]) == 3
    assert json.loads(rulefront("replay", str(replay), "--json").stdout)["verified"] is True


def test_tls_with_certfile_and_keyfile_serves_https_and_wss(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                           "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj",
                           "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    server = Served(tmp_path / "data", tls=(cert, key))
    try:
        assert server.url.startswith("https://127.0.0.1:")
        trusted = {"SSL_CERT_FILE": str(cert)}
        game = new_game(server.url, "duel", 1, env=trusted)
        listed = rulefront("online", "games", server.url, "--json", env=trusted)
        untrusted = rulefront("online", "games", server.url)
    finally:
        server.stop()
    assert json.loads(listed.stdout)[0]["game"] == game["game"]
    assert untrusted.returncode == 2 and "cannot reach" in untrusted.stderr
    assert "CERTIFICATE_VERIFY_FAILED" in untrusted.stderr or "certificate" in untrusted.stderr


def test_bad_flags_and_unreachable_servers_are_one_sentence_and_exit_2(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    server = Served(tmp_path / "data")
    try:
        cases = [
            (("serve", "--data", str(a_file), "--port", "0"), "is a file, not a folder"),
            (("serve", "--certfile", str(tmp_path / "none.pem"), "--keyfile",
              str(tmp_path / "none.pem"), "--port", "0", "--data", str(tmp_path / "d")),
             "cannot be used as the server's certificate"),
            (("serve", "--port", str(server.port), "--data", str(tmp_path / "d")),
             f"cannot serve on 127.0.0.1:{server.port}"),
            (("serve", "--port", "0", "--data", str(tmp_path / "data")),
             "another `rulefront serve` keeps its games there"),
            (("online", "new", "http://127.0.0.1:1/", "duel"), "cannot reach a Rulefront server"),
            (("online", "new", server.url, "no-such-map"), "offers no map 'no-such-map'"),
            (("online", "watch", server.url, "../../etc"), "is not a game id"),
        ]
        done = [(rulefront(*args, timeout=60), expected) for args, expected in cases]
    finally:
        server.stop()
    for result, expected in done:
        assert result.returncode == 2, (expected, result.stderr)
        assert expected in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_without_the_online_extra_serve_and_online_say_how_to_install_it(tmp_path: Path) -> None:
    (tmp_path / "websockets.py").write_text("raise ImportError('not installed')\n")
    for args in (("serve", "--port", "0", "--data", str(tmp_path / "d")),
                 ("online", "games", "http://127.0.0.1:1/")):
        done = start(*args, pythonpath=str(tmp_path))
        _out, err = done.communicate(timeout=60)
        assert done.returncode == 2 and "needs websockets: pip install -e '.[online]'" in err
