"""`rulefront bench server`: N games at once against a real `rulefront serve` on loopback.

The server runs in a process of its own, as in use; this process plays every seat of every
game over its own WebSocket. So that the figures measure the server and not the AIs, each game
is a random-vs-random game played through once offline first (its map and seed are the game's),
and its seats then send those commands, each `think_ms` after the previous command's `played`
has arrived (a bot's pace; 0: at once, every game always has a command in flight, and the mean
latency is then in-flight commands over throughput, whatever the server does). Latency is the
time from a command sent to its `played` (its events) received by the seat that sent it: the
check, the fsynced append to the game's log and the broadcast included; the think time is not
in it. With a think time, the same games are also played with none (`server.closed_loop.*`).
CPU per command (the server's and this process's) is reported too: unlike latency, it hardly
depends on what else the machine runs.
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
THINK_MS = 100.0  # a seat's pause before each command: a bot's pace (docs/online.md)


def server(repeat: int = 5, games: int = 50, think_ms: float = THINK_MS,
           **_: Any) -> dict[str, float]:
    """Medians over min(repeat, 3) runs of `games` concurrent games whose seats think
    `think_ms` before each command, and, when that is not 0, of as many runs with no thinking
    at all (`server.closed_loop.*`: the saturated figures, beside the paced ones). None
    without the `online` extra."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        return {}
    figures = medians([run_once(games, think_ms) for _ in range(min(repeat, 3))])
    if think_ms > 0:
        saturated = medians([run_once(games, 0.0) for _ in range(min(repeat, 3))])
        figures.update({f"server.closed_loop.{key.removeprefix('server.')}": value
                        for key, value in saturated.items()
                        if key not in ("server.concurrent_games", "server.think_ms")})
    return figures


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
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


def run_once(games: int, think_ms: float = 0.0) -> dict[str, float]:
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
            return asyncio.run(_play_all(f"ws://{found.group(1)}/ws", plays, think_ms / 1000,
                                         process.pid))
        finally:
            process.terminate()
            process.wait(10)


async def _play_all(url: str, plays: list[list[tuple[str, dict[str, Any]]]], think: float,
                    pid: int) -> dict[str, float]:
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
    start, server_cpu, own_cpu = time.perf_counter(), cpu_s(pid), time.process_time()
    await asyncio.gather(*(
        _seat(url, created, side, script, latencies, think)
        for created, script in zip(made, plays, strict=True) for side in created.sides))
    wall = time.perf_counter() - start
    server_cpu, own_cpu = cpu_s(pid) - server_cpu, time.process_time() - own_cpu
    latencies.sort()
    figures = {
        "server.concurrent_games": float(len(plays)),
        "server.think_ms": 1000 * think,
        "server.commands_per_s": len(latencies) / wall,
        "server.p50_ms": 1000 * latencies[len(latencies) // 2],
        "server.p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "server.client_cpu_ms_per_command": 1000 * own_cpu / len(latencies),
    }
    if server_cpu >= 0:
        figures["server.cpu_ms_per_command"] = 1000 * server_cpu / len(latencies)
    return figures


def cpu_s(pid: int) -> float:
    """The CPU seconds (user and system) process `pid` has used, -1 where /proc cannot tell
    (not Linux): unlike latency, it does not depend on what else the machine runs."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return -1.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _seat(url: str, created: Any, side: str, script: list[tuple[str, dict[str, Any]]],
                latencies: list[float], think: float) -> None:
    """One seat: join, then send its commands in the script's order, each `think` seconds
    after the command before it (whoever's) has been played."""
    from websockets.asyncio.client import connect

    from game.net import protocol as p

    async with connect(url, proxy=None, compression=None) as ws:
        await ws.send(p.encode(p.Join(created.game, side, created.tokens[side])), text=True)
        done = 0
        sent_at = 0.0

        async def maybe_send() -> None:
            nonlocal sent_at
            if done < len(script) and script[done][0] == side:
                if think > 0:
                    await asyncio.sleep(think)
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
