"""A seat's connection on a thread of its own, for clients whose loop is not asyncio's.

The window (pyglet) and the terminal app own the game they draw; the connection (the client
library's `Follower`: join, catch-up, reconnect, command ids) runs on a background thread with
its own event loop. Between the two there are only queues: `send(command)` hands a command to
the thread, `poll()` returns what the server said since the last call, as plain JSON objects
(docs/online.md), plus `{"type": "connection", "state": ..., "sentence": ...}` notices when
the link reconnects, fails or closes. `game.session.remote.Mirror` reads them; `take_seat`
puts the two together for `online play` and the title menu's Join and Host.
"""

from __future__ import annotations

import asyncio
import queue
import random
import threading
from dataclasses import dataclass
from typing import Any

from game.commands import Command
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_game_map
from game.net import protocol as p
from game.net.client import Follower
from game.session.match import Seat
from game.session.remote import Mirror

JOIN_TIMEOUT = 20.0  # seconds to reach the server and take the seat before giving up


class Link:
    """One seat of one game, followed on a background thread."""

    def __init__(self, url: str, game: str, seat: str, token: str,
                 patience: float | None = None) -> None:
        self.follower = (Follower(url, game, seat, token) if patience is None
                         else Follower(url, game, seat, token, patience=patience))
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.joined: p.Joined | None = None
        self._ready = threading.Event()
        self._failure: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None
        self._thread = threading.Thread(target=self._run, name="rulefront-link", daemon=True)
        self._reconnects = 0

    def start(self, timeout: float = JOIN_TIMEOUT) -> p.Joined:
        """Connect and take the seat; the server's `joined` answer, or the UserError saying
        why not (unreachable, unknown game, wrong token)."""
        self._thread.start()
        if not self._ready.wait(timeout):
            self.close()
            raise UserError(f"the server at {self.follower.url} did not answer within "
                            f"{timeout:.0f} s.")
        if self._failure is not None or self.joined is None:
            self.close()
            raise UserError(self._failure or "the server closed the connection.")
        return self.joined

    def send(self, command: Command) -> None:
        if self._loop is None or self._loop.is_closed():
            self.inbox.put({"type": "error", "message": "not connected: the command was not "
                                                        "sent."})
            return
        self._loop.call_soon_threadsafe(
            lambda: self._loop.create_task(self.follower.submit(command)))  # type: ignore[union-attr]

    def poll(self) -> list[dict[str, Any]]:
        found = []
        while True:
            try:
                found.append(self.inbox.get_nowait())
            except queue.Empty:
                return found

    def close(self) -> None:
        loop, task = self._loop, self._task
        if loop is not None and task is not None and not loop.is_closed():
            loop.call_soon_threadsafe(task.cancel)
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(5)

    # -- the thread -----------------------------------------------------------------------

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception as exc:  # reported to the UI; the thread ends quietly
            self._fail(f"the connection failed: {exc}")

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        try:
            await self.follower.run(self._handle)
        except UserError as exc:
            self._fail(str(exc))
            return
        except asyncio.CancelledError:
            return
        self.inbox.put({"type": "connection", "state": "closed",
                        "sentence": "the game is over; the server closed the connection."})

    async def _handle(self, follower: Follower, message: p.ServerMessage) -> None:
        if isinstance(message, p.Joined):
            if follower.reconnects != self._reconnects:
                self._reconnects = follower.reconnects
                self.inbox.put({"type": "connection", "state": "connected",
                                "sentence": "reconnected; caught up with the server."})
            else:
                self.inbox.put({"type": "connection", "state": "connected", "sentence": ""})
            self.joined = message
            self._ready.set()
        self.inbox.put(p.to_builtins(message))

    def _fail(self, sentence: str) -> None:
        self._failure = sentence
        self.inbox.put({"type": "connection", "state": "failed", "sentence": sentence})
        self._ready.set()


@dataclass
class Seated:
    """A seat taken at a server's game: the mirror to play through, a Seat per side for the
    clients' panels (the player's side "you", the other "online"), and the game's seed."""

    mirror: Mirror
    seats: dict[str, Seat]
    seed: int


def take_seat(url: str, game: str, token: str, seat: str | None = None) -> Seated:
    """Join the seat `token` opens (or `seat`) and build the local game that mirrors the
    server's, caught up with what has been played; a UserError in one sentence when the
    server, the game or the token will not do."""
    side = seat or seat_of_token(url, game, token)
    link = Link(url, game, side, token)
    joined = link.start()
    try:
        engine = Engine.from_game_map(load_game_map(joined.map), seed=joined.seed,
                                      ruleset=joined.ruleset)
    except UserError:
        link.close()
        raise
    mirror = Mirror(engine, side, link)
    mirror.pull(limit=None)  # the catch-up so far, before the first frame
    seats = {s: Seat(s, "you" if s == side else "online", None, random.Random(0))
             for s in engine.ruleset.sides}
    return Seated(mirror, seats, joined.seed)


def seat_of_token(url: str, game: str, token: str) -> str:
    """The side a token opens: each side of the game is tried (a wrong token opens none)."""
    from game.net.client import ask

    games = ask(url, p.ListGames())
    found = [info for info in getattr(games, "games", []) if info.game == game]
    if not found:
        raise UserError(f"the server at {url} has no game {game} (`rulefront online games "
                        f"{url}` lists them).")
    for side in found[0].sides:
        try:
            answer = ask(url, p.Join(game, side, token))
        except UserError:
            continue
        if isinstance(answer, p.Joined):
            return side
    raise UserError(f"that token opens no seat of game {game}; give the token `rulefront "
                    "online new` printed for your seat.")
