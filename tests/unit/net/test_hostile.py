"""Strangers on the wire: malformed, oversized, unauthorised and flooding messages to a real
`rulefront serve` get an error or a closed connection, and the server goes on serving."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.unit.net.running import Served, new_game, rulefront


async def _exchange(url: str, frames: list[str | bytes]) -> list[dict[str, Any]]:
    """Send each frame and read one answer to it (who comes and goes aside)."""
    answers = []
    async with connect(url.replace("http", "ws") + "ws", proxy=None) as ws:
        for frame in frames:
            await ws.send(frame)
            answer = json.loads(await asyncio.wait_for(ws.recv(), 60))
            while answer["type"] == "presence":
                answer = json.loads(await asyncio.wait_for(ws.recv(), 60))
            answers.append(answer)
    return answers


@pytest.fixture
def served(tmp_path: Path) -> Any:
    server = Served(tmp_path / "data")
    yield server
    err = server.stop()
    assert "Traceback" not in err, err


BAD = [
    ("not json", "malformed"),
    (b"\xff\xfe binary garbage", "malformed"),
    ("[1, 2, 3]", "malformed"),
    ('{"type": "launch-missiles"}', "malformed"),
    ('{"type": "new", "map": "duel", "extra": 1}', "malformed"),
    ('{"type": "new", "map": "../../etc/passwd"}', "unknown-map"),
    ('{"type": "new", "map": "/etc/passwd"}', "unknown-map"),
    ('{"type": "new", "map": "duel", "seed": -1}', "malformed"),
    ('{"type": "new", "map": "duel", "seed": 1e400}', "malformed"),
    ('{"type": "new", "map": "' + "x" * 300 + '"}', "malformed"),
    ('{"type": "watch", "game": "../../../etc"}', "malformed"),
    ('{"type": "watch", "game": "AAAAAAAAAAAA"}', "unknown-game"),
    ('{"type": "replay", "game": "AAAAAAAAAAAA"}', "unknown-game"),
    ('{"type": "command", "id": "x", "command": {"type": "EndTurn"}}', "not-seated"),
    ('{"type": "resign", "id": "x"}', "not-seated"),
    ('{"type": "command", "id": "bad id with spaces", "command": {}}', "malformed"),
    ('{"type": "join", "game": "AAAAAAAAAAAA", "seat": "red", "token": ""}', "malformed"),
    ('{"type": "join", "game": "AAAAAAAAAAAA", "seat": "red", "token": "t"}', "unknown-game"),
    ('{"type": "new", "map": {"$ref": "x"}}', "malformed"),
]


def test_malformed_messages_are_answered_with_errors_and_the_server_lives_on(served: Served):
    answers = asyncio.run(_exchange(served.url, [frame for frame, _ in BAD]))
    assert [(a["type"], a["code"]) for a in answers] == [("error", code) for _, code in BAD]
    assert all(a["message"] for a in answers)
    assert rulefront("online", "games", served.url, "--json").stdout.strip() == "[]"


def test_an_oversized_frame_closes_that_connection_only(served: Served):
    async def oversized() -> int | None:
        async with connect(served.url.replace("http", "ws") + "ws", proxy=None,
                           max_size=None) as ws:
            await ws.send('{"type": "new", "map": "' + "x" * 100_000 + '"}')
            try:
                await asyncio.wait_for(ws.recv(), 60)
            except ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
        return None

    assert asyncio.run(oversized()) == 1009
    assert served.alive()
    assert new_game(served.url, "duel", 1)["game"]


def test_commands_out_of_turn_illegal_or_for_another_seat_are_refused_with_a_reason(
        served: Served):
    game = new_game(served.url, "duel", 2)
    join_blue = json.dumps({"type": "join", "game": game["game"], "seat": "blue",
                            "token": game["tokens"]["blue"]})
    join_red = json.dumps({"type": "join", "game": game["game"], "seat": "red",
                           "token": game["tokens"]["red"]})
    blue = asyncio.run(_exchange(served.url, [
        join_blue, '{"type": "command", "id": "b1", "command": {"type": "EndTurn"}}']))
    red = asyncio.run(_exchange(served.url, [
        join_red,
        '{"type": "command", "id": "r1", "command": {"type": "Move", "unit": 9999, "x": 0, '
        '"y": 0}}',
        '{"type": "command", "id": "r2", "command": {"type": "Fly", "unit": 1}}',
        '{"type": "command", "id": "r3", "command": {"type": "EndTurn", "extra": 1}}',
        '{"type": "command", "id": "r4", "at": 5, "command": {"type": "EndTurn"}}']))
    assert blue[0]["type"] == "joined" and blue[1] == {
        "type": "refused", "id": "b1", "reason": "it is red's turn, not blue's."}
    assert red[0]["type"] == "joined"
    refusals = red[1:]
    assert [r["type"] for r in refusals] == ["refused"] * 4
    assert all(r["reason"] for r in refusals)
    assert "unknown command type 'Fly'" in refusals[1]["reason"]
    assert "game is at command 0" in refusals[3]["reason"]
    assert json.loads(rulefront("online", "games", served.url, "--json").stdout)[0][
        "commands"] == 0


def test_a_flood_is_rate_limited_then_closed(served: Served):
    async def flood() -> tuple[int, int | None]:
        limited = 0
        async with connect(served.url.replace("http", "ws") + "ws", proxy=None) as ws:

            async def send() -> None:
                with contextlib.suppress(ConnectionClosed):
                    for _ in range(3000):
                        await ws.send('{"type": "games"}')

            sender = asyncio.create_task(send())
            with contextlib.suppress(ConnectionClosed):
                async for raw in ws:
                    limited += json.loads(raw).get("code") == "rate-limited"
            await sender
            return limited, ws.close_code

    limited, code = asyncio.run(flood())
    assert limited > 0 and code == 1008
    assert served.alive() and rulefront("online", "games", served.url).returncode == 0


def test_new_games_count_twenty_messages_each_against_the_rate(tmp_path: Path):
    """At --rate 10 (bursts of 20 messages) one connection makes one game, then waits."""
    server = Served(tmp_path / "data", extra=("--rate", "10"))

    async def burst() -> list[dict[str, Any]]:
        async with connect(server.url.replace("http", "ws") + "ws", proxy=None) as ws:
            for _ in range(3):
                await ws.send('{"type": "new", "map": "duel"}')
            return [json.loads(await asyncio.wait_for(ws.recv(), 60)) for _ in range(3)]

    try:
        answers = asyncio.run(burst())
    finally:
        server.stop()
    kinds = [a["type"] if a["type"] != "error" else a["code"] for a in answers]
    assert kinds == ["created", "rate-limited", "rate-limited"]
