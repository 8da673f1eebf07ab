"""`rulefront serve`: many games at once over WebSockets (asyncio, the `websockets` library),
and plain HTTP on the same port for the spectator page and its JSON (game/net/routes.py).

Each message is handed to its connection's socket in the same step that decides it, so no
live message can slip into a catch-up. A command is checked against the game's engine,
appended to the game's log and fsynced (game/net/store.py), and only then applied and told to
everyone. Nothing a client sends is imported, evaluated or used as a path: messages are
decoded into game/net/protocol.py's schemas, game ids are looked up in a dictionary, maps in
the catalogue of shipped maps. Whatever goes wrong while handling one message is answered
with an error to that connection; the server goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import secrets
import signal
import ssl
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.asyncio.server import broadcast

from game.commands import Command, from_json
from game.data import shipped_levels
from game.errors import UserError
from game.net import protocol as p
from game.net.games import Game, Listener, new_engine, plain_json
from game.net.spectate import Spectate
from game.net.store import STORE_FORMAT, GameMeta, Line, Store, hash_token
from game.session.seat import Forfeited

DEFAULT_PORT = 8765
RATE = 200.0  # messages a second one connection may send, on average
BURST = 400.0  # ... and at once
STRIKES = 100  # messages over the rate before the connection is closed
MAX_GAMES = 10_000
NEW_COST = 20.0  # a `new` counts as this many messages against the rate


@dataclass(frozen=True)
class Limits:
    rate: float = RATE
    burst: float = BURST
    max_games: int = MAX_GAMES


def catalogue() -> dict[str, str]:
    """The maps a client may name: each shipped map or level by its name -> the path a replay
    records ("maps/duel.png"), which opens it on any machine with Rulefront."""
    from game import registry

    sets = {suffix for spec in registry.specs() for suffix in spec.level_sets}
    return {level.name: f"maps/{level.relative}" for level in shipped_levels()
            if level.path.suffix.lower() not in sets}


class Connection(Listener):
    """One client: its rate bucket, and the game and seat it has joined."""

    def __init__(self, ws: Any, limits: Limits) -> None:
        self.ws = ws
        self.game: Game | None = None
        self.seat: str | None = None
        self.limits = limits
        self.tokens = limits.burst
        self.stamp = time.monotonic()
        self.strikes = 0
        self.dropped = False
        self.closing: asyncio.Task[None] | None = None

    def send(self, message: Any) -> None:
        """Hand the message to the socket now, in the step that decides it, so messages go
        out in the order they are sent and no live message can slip into a catch-up. Neither
        a task per connection nor an await per message (websockets' `broadcast`, to one
        connection)."""
        if self.dropped:
            return
        data = message if isinstance(message, bytes) else p.encode(message)
        transport = self.ws.transport
        if transport is not None and transport.get_write_buffer_size() > p.MAX_QUEUED_BYTES:
            self.finish(1008, "too slow to follow the game")  # it reconnects and catches up
            return
        broadcast((self.ws,), data, text=True)

    def finish(self, code: int, reason: str) -> None:
        """Close the connection once what was sent before has gone out (the close frame
        follows it on the socket)."""
        if not self.dropped:
            self.dropped = True
            self.closing = asyncio.get_running_loop().create_task(self.ws.close(code, reason))

    def allow(self, cost: float = 1.0) -> bool:
        """The token bucket: False when this message (worth `cost` messages) is over the
        rate."""
        now = time.monotonic()
        self.tokens = min(self.limits.burst, self.tokens + (now - self.stamp) * self.limits.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        self.strikes += 1
        return False


class Server:
    """The games of one `--data` folder and the connections that play and watch them."""

    def __init__(self, data: Path, limits: Limits | None = None,
                 spectate: Spectate | None = None) -> None:
        self.store = Store(data)
        self.limits = limits or Limits()
        self.games: dict[str, Game] = {}
        self.maps = catalogue()
        self.connections: set[Connection] = set()
        self.spectate = spectate or Spectate()  # the spectator page's look and frames
        self.disk = ThreadPoolExecutor(1, thread_name_prefix="rulefront-disk")
        self.batch: list[tuple[str, Line, asyncio.Future[None]]] = []
        self.committing = False

    async def on_disk(self, work: Any, *args: Any) -> Any:
        """Run a store write on the disk thread, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.disk, work, *args)

    async def commit(self, game: str, line: Line) -> None:
        """Return once `line` is durable (a UserError if it could not be stored). Lines that
        arrive while a batch is being written go together in the next one: one fsync for
        all of them, and one wake-up of the event loop (docs/online.md, the bench)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.batch.append((game, line, done))
        if not self.committing:
            self.committing = True
            asyncio.get_running_loop().create_task(self._commit_batches())
        await done

    async def _commit_batches(self) -> None:
        try:
            while self.batch:
                batch, self.batch = self.batch, []
                lines = [(g, line) for g, line, _ in batch]
                try:
                    await self.on_disk(self.store.journal_batch, lines)
                    self.store.write_logs(lines)
                except Exception as exc:
                    for _game, _line, done in batch:
                        done.set_exception(exc)
                else:
                    for _game, _line, done in batch:
                        done.set_result(None)
        finally:
            self.committing = False

    def load(self) -> list[str]:
        """Every game on disk, rebuilt from its log; sentences for those left out."""
        notes = []
        for stored in self.store.load():
            if isinstance(stored, str):
                notes.append(stored)
                continue
            try:
                game = Game.rebuild(stored)
            except UserError as exc:
                notes.append(f"game {stored.meta.game}: left out: {exc}")
                continue
            self.games[game.id] = game
        return notes

    # -- connections ----------------------------------------------------------------------

    async def handle(self, ws: Any) -> None:
        conn = Connection(ws, self.limits)
        self.connections.add(conn)
        try:
            async for data in ws:
                if conn.dropped:
                    continue  # read on until the close handshake comes back
                if not conn.allow():
                    if conn.strikes > STRIKES:
                        conn.finish(1008, "too many messages")
                        continue
                    conn.send(p.Error("rate-limited", "too many messages; slow down."))
                    continue
                await self.receive(conn, data)
        except Exception as exc:  # a connection's trouble ends that connection only
            if not _closed(exc):
                traceback.print_exc(file=sys.stderr)
        finally:
            self.connections.discard(conn)
            self.leave(conn)
            if conn.closing is not None:  # let the close handshake finish
                with contextlib.suppress(asyncio.TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(conn.closing), 5.0)

    async def receive(self, conn: Connection, data: str | bytes) -> None:
        try:
            message = p.decode_client(data)
        except p.Malformed as exc:
            conn.send(p.Error("malformed", f"{exc}."))
            return
        try:
            await self.dispatch(conn, message)
        except UserError as exc:
            conn.send(p.Error("malformed", str(exc)))
        except Exception:  # a bug of ours answers this message; the server lives on
            traceback.print_exc(file=sys.stderr)
            conn.send(p.Error("internal", "the server failed on this message (its log says "
                                          "why); nothing was applied."))

    async def dispatch(self, conn: Connection, message: p.ClientMessage) -> None:
        if isinstance(message, p.Play):
            await self.play(conn, message)
        elif isinstance(message, p.Join):
            self.join(conn, message)
        elif isinstance(message, p.Watch):
            self.watch(conn, message)
        elif isinstance(message, p.New):
            if conn.allow(NEW_COST - 1):  # a game costs a map loaded and files made
                await self.new(conn, message)
            else:
                conn.send(p.Error("rate-limited", "too many new games; slow down."))
        elif isinstance(message, p.ListGames):
            conn.send(p.Games([game.info() for game in self.games.values()]))
        elif isinstance(message, p.GetReplay):
            game = self.find(conn, message.game)
            if game is not None:
                conn.send(p.ReplayFile(game.id, game.record_json()))
        elif isinstance(message, p.Resign):
            await self.resign(conn, message)

    def find(self, conn: Connection, game_id: str) -> Game | None:
        game = self.games.get(game_id)
        if game is None:
            conn.send(p.Error("unknown-game", f"no game {game_id} on this server "
                                              "(`rulefront online games URL` lists them)."))
        return game

    def leave(self, conn: Connection) -> None:
        game = conn.game
        if game is not None:
            game.leave(conn)
            conn.game = conn.seat = None
            game.broadcast(game.presence())

    def join(self, conn: Connection, message: p.Join) -> None:
        game = self.find(conn, message.game)
        if game is None:
            return
        if message.seat not in game.meta.sides or not game.token_opens(message.seat,
                                                                       message.token):
            conn.send(p.Error("bad-token", f"that token does not open seat {message.seat!r} "
                                           f"of game {game.id}."))
            return
        self.enter(conn, game, message.seat, message.since)

    def watch(self, conn: Connection, message: p.Watch) -> None:
        game = self.find(conn, message.game)
        if game is not None:
            self.enter(conn, game, None, message.since)

    def enter(self, conn: Connection, game: Game, seat: str | None, since: int) -> None:
        self.leave(conn)
        game.catch_up(conn, since, seat)
        game.sit(conn, seat)
        conn.game, conn.seat = game, seat
        game.broadcast(game.presence())

    # -- games ----------------------------------------------------------------------------

    async def new(self, conn: Connection, message: p.New) -> None:
        if len(self.games) >= self.limits.max_games:
            conn.send(p.Error("full", f"this server holds {len(self.games)} games, as many as "
                                      "it may."))
            return
        map_path = self.maps.get(message.map)
        if map_path is None:
            conn.send(p.Error("unknown-map", f"this server offers no map {message.map!r}; "
                                             f"it offers {', '.join(sorted(self.maps))}."))
            return
        seed = message.seed if message.seed is not None else secrets.randbelow(2**31)
        engine = new_engine(map_path, seed)
        assert engine.map is not None
        sides = list(engine.ruleset.sides)
        game_id = command_word(9)
        while game_id in self.games:
            game_id = command_word(9)
        tokens = {side: command_word(24) for side in sides}
        meta = GameMeta(STORE_FORMAT, game_id, map_path, engine.map.sha256, engine.ruleset.name,
                        seed, sides, {side: hash_token(t) for side, t in tokens.items()},
                        time.time(), message.clock)
        try:
            await self.on_disk(self.store.create, meta)
        except UserError as exc:
            conn.send(p.Error("storage", f"the server could not store a new game: {exc}"))
            return
        game = Game(meta, engine)
        game.start_clocks()
        self.games[game_id] = game
        conn.send(p.Created(game_id, message.map, engine.ruleset.name, seed, sides, tokens,
                            message.clock))

    async def play(self, conn: Connection, message: p.Play) -> None:
        game, side = conn.game, conn.seat
        if game is None or side is None:
            conn.send(p.Error("not-seated", "join a seat (with its token) before sending "
                                            "commands."))
            return
        async with game.lock:
            done = game.ids.get(message.id)
            if done is not None:  # sent again after a reconnect: applied once, answered again
                conn.send(p.Accepted(message.id, done))
                return
            command = checked(game, side, message)
            if isinstance(command, str):
                conn.send(p.Refused(message.id, command))
                return
            n = game.commands + 1
            line = Line(n, message.id, side, plain_json(command))
            try:
                await self.commit(game.id, line)
            except UserError as exc:
                conn.send(p.Error("storage", f"the server could not store the command, so it "
                                             f"was not applied: {exc}"))
                return
            game.engine.redo_stack.clear()  # submit() less its check: checked() just made it
            game.engine.apply(command)
            game.note(message.id, side)
            game.broadcast(game.played(n))  # the sender's acknowledgement: its id is in it
            if game.over:
                game.broadcast(p.Ended(game.id, game.result() or {}))

    async def resign(self, conn: Connection, message: p.Resign) -> None:
        game, side = conn.game, conn.seat
        if game is None or side is None:
            conn.send(p.Error("not-seated", "join a seat (with its token) before resigning."))
            return
        async with game.lock:
            if game.to_play != side:
                conn.send(p.Refused(message.id, "a seat may resign only on its own turn."))
                return
            reason = message.reason or f"{side} resigned"
            await self.forfeit(game, Forfeited(side, "online", reason))

    async def forfeit(self, game: Game, forfeit: Forfeited) -> None:
        """End the game by `forfeit` (logged before it is told); the caller holds the lock."""
        line = Line(game.commands, forfeit=forfeit.to_json())
        await self.commit(game.id, line)
        game.forfeit = forfeit
        game.broadcast(p.Ended(game.id, game.result() or {}))

    @staticmethod
    async def tidy(every: float = 0.25) -> None:
        """Freeze what has survived a quarter second: the games' histories, journals and
        caches only grow, and the collector's full passes over them stalled every game (up to
        half a second at a time with 50 games in the bench). Short-lived cycles are still
        collected young; frozen objects are not walked again."""
        while True:
            await asyncio.sleep(every)
            gc.freeze()

    async def clocks(self) -> None:
        """Every quarter second: a side to play that has been away past its clock forfeits."""
        while True:
            await asyncio.sleep(0.25)
            now = time.monotonic()
            for game in list(self.games.values()):
                side = game.overdue(now)
                if side is None:
                    continue
                async with game.lock:
                    if game.overdue(time.monotonic()) == side:
                        reason = (f"{side} stayed away longer than the game's clock "
                                  f"({game.meta.clock:g} s)")
                        with contextlib.suppress(UserError):
                            await self.forfeit(game, Forfeited(side, "online", reason))


def command_word(nbytes: int) -> str:
    """secrets.token_urlsafe, but never starting with '-': ids and tokens are typed on command
    lines (`online play URL GAME --token T`), where argparse would read '-x...' as an option."""
    while True:
        word = secrets.token_urlsafe(nbytes)
        if not word.startswith("-"):
            return word


def checked(game: Game, side: str, message: p.Play) -> Command | str:
    """The seat's command if it may be played now, else the sentence why not."""
    if game.over:
        return "the game is over."
    if game.to_play != side:
        return f"it is {game.to_play}'s turn, not {side}'s."
    if message.at is not None and message.at != game.commands:
        return (f"the command was chosen after command {message.at}, but the game is at "
                f"command {game.commands}; catch up and choose again.")
    try:
        command = from_json(message.command)
    except UserError as exc:
        return str(exc)
    why = game.engine.why_illegal(command)
    return command if why is None else why


def _closed(exc: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, ConnectionClosed)


def tls_context(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """The server's TLS context from --certfile/--keyfile (both or neither)."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None:
        raise UserError("--keyfile needs --certfile (the certificate chain, PEM).")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as exc:
        raise UserError(f"{certfile}: cannot be used as the server's certificate "
                        f"({getattr(exc, 'strerror', None) or exc}).") from None
    return context


async def serve(server: Server, host: str, port: int, context: ssl.SSLContext | None,
                announce: Any = print) -> None:
    """Serve until cancelled: WebSockets on /ws, HTTP elsewhere (game/net/routes.py)."""
    from websockets.asyncio.server import serve as ws_serve

    from game.net.routes import respond

    def process_request(connection: Any, request: Any) -> Any:
        return respond(server, connection, request)

    try:
        running = ws_serve(server.handle, host, port, process_request=process_request,
                           max_size=p.MAX_MESSAGE_BYTES, ssl=context, max_queue=64,
                           close_timeout=2, compression=None)
        async with running as ws_server:
            bound = ws_server.sockets[0].getsockname()
            scheme = "https" if context else "http"
            shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
            announce(f"{scheme}://{shown}:{bound[1]}/")
            clocks = asyncio.create_task(server.clocks())
            tidy = asyncio.create_task(server.tidy())
            stop: asyncio.Future[None] = asyncio.get_running_loop().create_future()

            def stopped() -> None:
                if not stop.done():
                    stop.set_result(None)

            with contextlib.suppress(NotImplementedError):  # SIGTERM stops as Ctrl-C does
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopped)
            try:
                await stop
            finally:
                clocks.cancel()
                tidy.cancel()
                if not server.committing and not server.batch:  # a clean stop: no journal
                    with contextlib.suppress(UserError):
                        server.store.checkpoint()
    except OSError as exc:
        raise UserError(f"cannot serve on {host}:{port}: {exc.strerror or exc}.") from None
