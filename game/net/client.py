"""The client side of docs/online.md: one-shot requests (`request`), and `Follower`, which
joins a seat or watches a game, keeps a replica Engine in step with the server's commands,
and reconnects by itself after a dropped connection or a server restart, catching up from
the server's log (it asks for what came after the last command it applied).

The replica is built locally from the map the server names (a shipped map, or a described
position) and the game's seed, and its sha256 is checked against the server's. A seat's
command goes out with an id and the position it was chosen at, so a command re-sent after a
reconnect is never applied twice (the server answers its `Accepted` again) and one chosen for
an old position is refused, never misapplied.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from game.commands import Command, from_json
from game.engine import Engine
from game.errors import UserError
from game.net import protocol as p

PATIENCE = 60.0  # seconds a Follower keeps trying to reach a server it has lost
MAX_FROM_SERVER = 256 * 2**20  # a server's message (a long game's replay) may be large


def ws_url(url: str) -> str:
    """The WebSocket address of a server given as http(s)://, ws(s):// or HOST:PORT."""
    text = url.strip()
    if "://" not in text:
        text = f"ws://{text}"
    parts = urlsplit(text)
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.hostname:
        raise UserError(f"{url}: is not a server address; give http://HOST:PORT/ as "
                        "`rulefront serve` prints it.")
    try:
        parts.port  # noqa: B018 - a port out of range raises here
    except ValueError:
        raise UserError(f"{url}: has no valid port.") from None
    return urlunsplit((scheme, parts.netloc, p.PATH, "", ""))


async def _connect(url: str) -> Any:
    from websockets.asyncio.client import connect

    return await connect(url, max_size=MAX_FROM_SERVER, proxy=None, open_timeout=10,
                         compression=None)


def _unreachable(url: str, exc: BaseException) -> UserError:
    why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return UserError(f"cannot reach a Rulefront server at {url} ({why}); is `rulefront "
                     "serve` running there?")


async def request(url: str, message: Any) -> p.ServerMessage:
    """Send one message and return the server's answer; an `Error` answer is a UserError."""
    address = ws_url(url)
    try:
        ws = await _connect(address)
    except (OSError, asyncio.TimeoutError) as exc:
        raise _unreachable(address, exc) from None
    except Exception as exc:  # a handshake refused: not our server, or not a server at all
        raise _unreachable(address, exc) from None
    async with ws:
        await ws.send(p.encode(message), text=True)
        answer = p.decode_server(await ws.recv())
    if isinstance(answer, p.Error):
        raise UserError(answer.message)
    return answer


def ask(url: str, message: Any) -> p.ServerMessage:
    """`request` from synchronous code (the CLI)."""
    try:
        return asyncio.run(request(url, message))
    except ValueError as exc:
        raise UserError(f"{url}: {exc}.") from None


Handler = Callable[["Follower", p.ServerMessage], Awaitable[None]]


class Follower:
    """A seat (seat and token given) or a spectator of one game, with a replica Engine."""

    def __init__(self, url: str, game: str, seat: str | None = None, token: str | None = None,
                 patience: float = PATIENCE) -> None:
        if not p.GAME_ID.fullmatch(game):
            raise UserError(f"{game!r} is not a game id (12 letters, digits, - or _, as "
                            "`rulefront online new` prints it).")
        self.url = ws_url(url)
        self.game = game
        self.seat = seat
        self.token = token
        self.patience = patience
        self.engine: Engine | None = None
        self.joined: p.Joined | None = None
        self.known = 0  # commands the server has told of
        self.result: dict[str, Any] | None = None
        self.pending: p.Play | None = None
        self.reconnects = 0
        self._ws: Any = None
        self._prefix = secrets.token_hex(4)

    # -- state ----------------------------------------------------------------------------

    @property
    def applied(self) -> int:
        return 0 if self.engine is None else len(self.engine.history)

    @property
    def caught_up(self) -> bool:
        return self.engine is not None and self.applied >= self.known

    @property
    def my_turn(self) -> bool:
        return (self.caught_up and self.result is None and self.pending is None
                and self.seat is not None and self.engine is not None
                and not self.engine.over and self.engine.side == self.seat)

    # -- acting ---------------------------------------------------------------------------

    async def submit(self, command: Command) -> None:
        """Send the seat's command for the position the replica is at."""
        n = self.applied + 1
        self.pending = p.Play(f"{self.seat}-{self._prefix}-{n}", command.to_json(), n - 1)
        await self._send(self.pending)

    async def resign(self, reason: str) -> None:
        await self._send(p.Resign(f"{self.seat}-{self._prefix}-resign", reason[:500]))

    async def _send(self, message: Any) -> None:
        if self._ws is None:
            return  # sent again once connected (pending), or the server ends the game
        with contextlib.suppress(Exception):
            await self._ws.send(p.encode(message), text=True)

    # -- the loop -------------------------------------------------------------------------

    async def run(self, handler: Handler | None = None) -> dict[str, Any]:
        """Follow the game to its end (reconnecting as needed); returns its result. Every
        message, once the replica has taken it in, goes to `handler`."""
        lost_at: float | None = None
        while self.result is None:
            try:
                self._ws = await _connect(self.url)
            except Exception as exc:
                lost_at = lost_at or time.monotonic()
                if time.monotonic() - lost_at > self.patience:
                    raise _unreachable(self.url, exc) from None
                await asyncio.sleep(min(1.0, 0.05 * 2 ** min(self.reconnects, 5)))
                self.reconnects += 1
                continue
            lost_at = None
            try:
                await self._session(handler)
            except (OSError, asyncio.TimeoutError):
                pass
            except Exception as exc:
                if not _closed(exc):
                    raise
            finally:
                ws, self._ws = self._ws, None
                with contextlib.suppress(Exception):
                    await ws.close()
            if self.result is None:
                self.reconnects += 1
                lost_at = time.monotonic()
        return self.result

    async def _session(self, handler: Handler | None) -> None:
        """One connection: hello, catch-up, live; messages are read by a task of their own so
        a handler that thinks (an AI) does not stall the connection's pings."""
        since = self.applied
        if self.seat is not None:
            hello: Any = p.Join(self.game, self.seat, self.token or "", since)
        else:
            hello = p.Watch(self.game, since)
        await self._ws.send(p.encode(hello), text=True)
        inbox: asyncio.Queue[Any] = asyncio.Queue()

        async def read() -> None:
            try:
                async for raw in self._ws:
                    inbox.put_nowait(p.decode_server(raw))
            except Exception as exc:  # closed: the loop reconnects; anything else is raised
                inbox.put_nowait(exc)
                return
            inbox.put_nowait(ConnectionError("closed"))

        reader = asyncio.create_task(read())
        resend_due = True
        try:
            while self.result is None:
                message = await inbox.get()
                if isinstance(message, BaseException):
                    raise message
                self._take(message)
                if resend_due and isinstance(message, p.Joined | p.Played) and self.caught_up:
                    resend_due = False
                    await self._resend()
                if handler is not None:
                    await handler(self, message)
        finally:
            reader.cancel()

    def _take(self, message: p.ServerMessage) -> None:
        """Bring the replica in step with one message from the server."""
        if isinstance(message, p.Error):
            raise UserError(message.message)
        if isinstance(message, p.Joined):
            self._joined(message)
        elif isinstance(message, p.Played):
            self._played(message)
        elif isinstance(message, p.Ended):
            self.result = message.result
        elif isinstance(message, p.Refused):
            if self.pending is not None and message.id == self.pending.id:
                raise UserError(f"the server refused {self.seat}'s command: {message.reason}")
        elif isinstance(message, p.Accepted):
            self.known = max(self.known, message.n)  # its Played follows: wait for it

    def _joined(self, message: p.Joined) -> None:
        self.joined = message
        self.known = message.commands
        if self.engine is not None:
            return
        from game.levels.loader import load_game_map

        try:
            game_map = load_game_map(message.map)
        except UserError as exc:
            raise UserError(f"game {self.game} is played on {message.map}, which this "
                            f"Rulefront cannot open: {str(exc).rstrip('.')}.") from None
        if game_map.sha256 != message.sha256:
            raise UserError(f"game {self.game} is played on a {message.map} other than this "
                            "Rulefront's (sha256 differs); install the server's version.")
        self.engine = Engine.from_game_map(game_map, seed=message.seed,
                                           ruleset=message.ruleset)

    def _played(self, message: p.Played) -> None:
        self.known = max(self.known, message.n)
        if self.engine is None or message.n <= self.applied:
            return  # already applied (a catch-up overlapping what we had)
        if message.n != self.applied + 1:
            raise ConnectionError("a gap in the commands")  # reconnect and catch up
        command = from_json(message.command)
        result = self.engine.submit(command)
        if not result.ok:
            raise UserError(f"command {message.n} from the server is illegal here "
                            f"({getattr(result, 'reason', '')}); this Rulefront plays "
                            "another version of the rules than the server's.")
        if self.pending is not None and message.id == self.pending.id:
            self.pending = None

    async def _resend(self) -> None:
        """After a reconnect: the command that was in flight goes again if the game has not
        moved past it (same id: the server applies it at most once)."""
        pending = self.pending
        if pending is None:
            return
        if pending.at != self.applied or self.engine is None or self.engine.side != self.seat:
            self.pending = None
            return
        await self._send(pending)


def _closed(exc: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    return isinstance(exc, ConnectionClosed | InvalidHandshake | ConnectionError)
