"""`rulefront bench server`: N games at once against a real `rulefront serve` on loopback.

The server runs in a process of its own, as in use; this process plays every seat of every
game over its own WebSocket. So that the figures measure the server and not the AIs, each game
is a random-vs-random game played through once offline first (its map and seed are the game's),
and its seats then send those commands, each as soon as the previous command's `played` has
arrived. Latency is the time from a command sent to its `played` (its events) received by the
seat that sent it: the check, the fsynced append to the game's log and the broadcast included.
"""

from __future__ import annotations

import asyncio
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MAP = "duel"
COMMANDS_PER_GAME = 120


def server(repeat: int = 5, games: int = 50, **_: Any) -> dict[str, float]:
    """Medians over min(repeat, 3) runs of `games` concurrent games (none without the
    `online` extra)."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        return {}
    runs = [run_once(games) for _ in range(min(repeat, 3))]
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def scripts(games: int, limit: int = COMMANDS_PER_GAME) -> list[list[tuple[str, dict[str, Any]]]]:
    """Each game's commands (side, command) as random seats play it offline, seed = its index."""
    from game.levels.loader import load_engine
    from game.session.seat import Forfeited, make_seats, step
    from systems.ai import Budget

    played = []
    for seed in range(games):
        engine = load_engine(MAP, seed=seed)
        seats = make_seats(engine, {}, seed)
        script: list[tuple[str, dict[str, Any]]] = []
        while not engine.over and len(script) < limit:
            side = engine.side
            outcome = step(seats[side], engine, Budget())
            assert not isinstance(outcome, Forfeited), outcome
            engine.submit(outcome.command)
            script.append((side, outcome.command.to_json()))
        played.append(script)
    return played


def run_once(games: int) -> dict[str, float]:
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root, *filter(None, [os.environ.get("PYTHONPATH")])])}
    plays = scripts(games)
    gc.collect()  # the offline games' engines are garbage now: not a pause in the measure
    gc.freeze()
    with tempfile.TemporaryDirectory(prefix="rulefront-bench-server-") as data:
        process = subprocess.Popen(
            [sys.executable, "-m", "game", "serve", "--port", "0", "--data", data],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        try:
            assert process.stdout is not None
            found = re.search(r"http://(\S+)/", process.stdout.readline())
            if found is None:
                raise RuntimeError("rulefront serve did not start")
            return asyncio.run(_play_all(f"ws://{found.group(1)}/ws", plays))
        finally:
            process.terminate()
            process.wait(10)


async def _play_all(url: str, plays: list[list[tuple[str, dict[str, Any]]]]) -> dict[str, float]:
    from websockets.asyncio.client import connect

    from game.net import protocol as p

    made = []
    for seed in range(len(plays)):  # a connection each: `new` counts 20 against a rate
        async with connect(url, proxy=None, compression=None) as lobby:
            await lobby.send(p.encode(p.New(MAP, seed)), text=True)
            created = p.decode_server(await lobby.recv())
            assert isinstance(created, p.Created), created
            made.append(created)
    latencies: list[float] = []
    start = time.perf_counter()
    await asyncio.gather(*(
        _seat(url, created, side, script, latencies)
        for created, script in zip(made, plays, strict=True) for side in created.sides))
    wall = time.perf_counter() - start
    latencies.sort()
    return {
        "server.concurrent_games": float(len(plays)),
        "server.commands_per_s": len(latencies) / wall,
        "server.p50_ms": 1000 * latencies[len(latencies) // 2],
        "server.p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
    }


async def _seat(url: str, created: Any, side: str, script: list[tuple[str, dict[str, Any]]],
                latencies: list[float]) -> None:
    """One seat: join, then send its commands in the script's order, each once the command
    before it (whoever's) has been played."""
    from websockets.asyncio.client import connect

    from game.net import protocol as p

    async with connect(url, proxy=None, compression=None) as ws:
        await ws.send(p.encode(p.Join(created.game, side, created.tokens[side])), text=True)
        done = 0
        sent_at = 0.0

        async def maybe_send() -> None:
            nonlocal sent_at
            if done < len(script) and script[done][0] == side:
                sent_at = time.perf_counter()
                await ws.send(p.encode(p.Play(f"{side}-{done + 1}", script[done][1], done)),
                              text=True)

        async for raw in ws:
            message = p.decode_server(raw)
            if isinstance(message, p.Joined):
                await maybe_send()
            elif isinstance(message, p.Played):
                if message.side == side:
                    latencies.append(time.perf_counter() - sent_at)
                done = message.n
                if done >= len(script):
                    return
                await maybe_send()
            elif isinstance(message, p.Refused | p.Error):
                raise RuntimeError(f"the server refused a scripted command: {message}")
