"""One game the server holds: its Engine, its seats and spectators, the command ids it has
accepted, and the messages it tells (docs/online.md).

The server never trusts a client's replica: every command is checked here with the engine's
own `why_illegal` before it is logged, and applied only once it is on disk.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.commands import from_json
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_game_map
from game.net.protocol import (
    Ended,
    GameInfo,
    Joined,
    Played,
    Presence,
    encode,
)
from game.net.store import GameMeta, Stored, hash_token
from game.session.replay import Record, record_of
from game.session.seat import Forfeited

SEAT_SPEC = "online"  # what a replay of a network game records as each seat


class Listener(Protocol):
    """A connection as a game sees it: something to queue messages on (the server's
    Connection)."""

    def send(self, message: Any) -> None:
        """Queue a message (a protocol Struct, or its encoded bytes)."""


@dataclass
class Game:
    meta: GameMeta
    engine: Engine
    ids: dict[str, int] = field(default_factory=dict)  # command id -> its number n
    played_ids: list[str] = field(default_factory=list)  # n - 1 -> command id
    played_sides: list[str] = field(default_factory=list)  # n - 1 -> the side that played
    forfeit: Forfeited | None = None
    seats: dict[str, set[Listener]] = field(default_factory=dict)
    spectators: set[Listener] = field(default_factory=set)
    away_since: dict[str, float] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    finished: dict[str, Any] | None = None  # the result, once over
    replay_key: tuple[int, bool] = (-1, False)
    replay_cache: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def rebuild(cls, stored: Stored) -> Game:
        """The game as its log left it: every command replayed from the seed (random state
        included), then the forfeit, if the log ends with one."""
        meta = stored.meta
        game = cls(meta, new_engine(meta.map, meta.seed, meta.ruleset))
        if game.engine.map is None or game.engine.map.sha256 != meta.sha256:
            raise UserError(f"the map {meta.map} has changed since the game was made")
        for line in stored.lines:
            if line.forfeit is not None:
                game.forfeit = Forfeited(line.forfeit["side"], line.forfeit.get("seat", ""),
                                         line.forfeit.get("reason", ""))
                continue
            command = from_json(line.command)
            result = game.engine.submit(command)
            if not result.ok:
                raise UserError(f"command {line.n} ({line.command}) is illegal on replay")
            game.note(line.id, line.side)
        game.start_clocks()
        return game

    # -- state ----------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.meta.game

    @property
    def over(self) -> bool:
        return self.forfeit is not None or self.engine.over

    @property
    def to_play(self) -> str | None:
        return None if self.over else self.engine.side

    @property
    def commands(self) -> int:
        return len(self.engine.history)

    def result(self) -> dict[str, Any] | None:
        """How the game ended (None while it goes on); kept once over, since `games` asks it
        of every game on every listing."""
        if self.finished is None and self.over:
            self.finished = self.record().result
        return self.finished

    def record(self) -> Record:
        """The game's replay: `rulefront replay` verifies it anywhere Rulefront is installed
        (the map is recorded by its shipped path or its description)."""
        seats = dict.fromkeys(self.meta.sides, SEAT_SPEC)
        if self.forfeit is not None:
            record = record_of(self.engine, self.meta.seed, seats, self.forfeit.to_json(),
                               self.forfeit.winner(self.engine))
        else:
            record = record_of(self.engine, self.meta.seed, seats)
        record.map_path = self.meta.map
        record.redo = []
        return record

    def record_json(self) -> dict[str, Any]:
        """The replay as JSON, kept until the next command or forfeit: a replay is asked for
        over HTTP by anyone, and rebuilding a long game's costs milliseconds each time."""
        key = (self.commands, self.forfeit is not None)
        if self.replay_key != key:
            self.replay_cache = self.record().to_json()
            self.replay_key = key
        return self.replay_cache

    def note(self, command_id: str, side: str) -> int:
        """Remember an applied command's id and side; returns its number n."""
        self.played_ids.append(command_id)
        self.played_sides.append(side)
        self.ids[command_id] = len(self.played_ids)
        return len(self.played_ids)

    def token_opens(self, side: str, token: str) -> bool:
        """Whether `token` is `side`'s (constant time: compared as digests)."""
        stored = self.meta.tokens.get(side)
        given = hash_token(token)
        return stored is not None and hmac.compare_digest(stored, given)

    def present(self) -> list[str]:
        return [side for side in self.meta.sides if self.seats.get(side)]

    # -- messages -------------------------------------------------------------------------

    def played(self, n: int) -> Played:
        entry = self.engine.history[n - 1]
        return Played(self.id, n, self.played_sides[n - 1], self.played_ids[n - 1],
                      plain_json(entry.command), [plain_json(event) for event in entry.events],
                      self._side_after(n))

    def _side_after(self, n: int) -> str | None:
        if n == self.commands:
            return self.to_play
        return self.played_sides[n]  # who played next is who was to play

    def joined(self, seat: str | None) -> Joined:
        return Joined(self.id, seat, self.meta.map, self.meta.sha256, self.meta.ruleset,
                      self.meta.seed, list(self.meta.sides), self.commands, self.to_play,
                      self.result() if self.over else None, self.meta.clock)

    def info(self) -> GameInfo:
        return GameInfo(self.id, self.meta.map, self.meta.ruleset, list(self.meta.sides),
                        self.commands, self.to_play, self.present(), len(self.spectators),
                        self.result() if self.over else None, self.meta.created)

    def listeners(self) -> list[Listener]:
        everyone = [conn for conns in self.seats.values() for conn in conns]
        return everyone + list(self.spectators)

    def broadcast(self, message: Any) -> None:
        data = encode(message)  # once, whoever listens
        for conn in self.listeners():
            conn.send(data)

    def catch_up(self, conn: Listener, since: int, seat: str | None) -> None:
        """`Joined`, then every command after `since`, then `Ended` if it is over: queued in
        one go, so no live message can come between them."""
        conn.send(self.joined(seat))
        for n in range(min(since, self.commands) + 1, self.commands + 1):
            conn.send(self.played(n))
        if self.over:
            conn.send(Ended(self.id, self.result() or {}))

    def presence(self) -> Presence:
        return Presence(self.id, self.present(), len(self.spectators))

    # -- seats and the clock --------------------------------------------------------------

    def sit(self, conn: Listener, side: str | None) -> None:
        if side is None:
            self.spectators.add(conn)
        else:
            self.seats.setdefault(side, set()).add(conn)
            self.away_since.pop(side, None)

    def leave(self, conn: Listener) -> None:
        self.spectators.discard(conn)
        for side, conns in self.seats.items():
            if conn in conns:
                conns.discard(conn)
                if not conns:
                    self.away_since[side] = time.monotonic()

    def start_clocks(self) -> None:
        """Every side away from now on (a new game, or one the server has just reloaded)."""
        now = time.monotonic()
        for side in self.meta.sides:
            if not self.seats.get(side):
                self.away_since[side] = now

    def overdue(self, now: float) -> str | None:
        """The side to play when it has been away longer than the clock allows."""
        side = self.to_play
        clock = self.meta.clock
        if side is None or clock is None or self.seats.get(side):
            return None
        since = self.away_since.get(side)
        return side if since is not None and now - since > clock else None


def plain_json(thing: Any) -> dict[str, Any]:
    """An event's or command's `to_json()`, without its deep copy: they hold plain numbers and
    strings (the copies were a fifth of the server's time per command in the bench)."""
    fields = getattr(thing, "__dict__", None)
    return thing.to_json() if fields is None else {"type": type(thing).__name__, **fields}


def new_engine(map_name: str, seed: int, ruleset: str | None = None) -> Engine:
    game_map = load_game_map(map_name)
    return Engine.from_game_map(game_map, seed=seed, ruleset=ruleset)
