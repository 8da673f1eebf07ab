"""The wire protocol of `rulefront serve`: every message a client may send, as a msgspec
schema with size limits, and the messages the server answers with.

One message is one JSON object in one WebSocket text frame, tagged by its `type`. Whatever
arrives is decoded straight into `ClientMessage` (a tagged union of Structs that forbid unknown
fields), so a message of the wrong shape, with a string too long or a number out of range,
never reaches the game: it is answered with an `Error` (docs/online.md lists every message,
its fields, their order and the error codes). The server's own messages are Structs too, so
clients decode them the same way.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct

MAX_MESSAGE_BYTES = 64 * 1024  # a frame larger than this closes the connection (code 1009)
MAX_QUEUED_BYTES = 32 * 2**20  # waiting for one slow client before it is dropped (it catches up)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{12}")  # what the server generates (secrets.token_urlsafe(9))
PATH = "/ws"  # the WebSocket endpoint; every other path is plain HTTP (docs/online.md)

GameId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{12}$")]
Side = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_-]*$")]
Token = Annotated[str, Meta(min_length=1, max_length=128)]
CommandId = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Count = Annotated[int, Meta(ge=0, le=10_000_000)]
Seed = Annotated[int, Meta(ge=0, le=2**63 - 1)]
Seconds = Annotated[float, Meta(ge=1, le=7 * 24 * 3600)]
MapName = Annotated[str, Meta(min_length=1, max_length=200)]
Reason = Annotated[str, Meta(max_length=500)]
# A command's fields: a handful of small ints and short strings (game.commands checks the rest).
CommandField = int | Annotated[str, Meta(max_length=32)]
CommandBody = Annotated[dict[Annotated[str, Meta(max_length=32)], CommandField],
                        Meta(max_length=16)]


# -- client -> server ----------------------------------------------------------------------


class New(Struct, tag="new", forbid_unknown_fields=True):
    """Make a game on a map the server offers; answered by `Created` (with the seat tokens)."""

    map: MapName
    seed: Seed | None = None
    clock: Seconds | None = None  # an absent seat forfeits after this many seconds away


class ListGames(Struct, tag="games", forbid_unknown_fields=True):
    """Ask for every game; answered by `Games`."""


class Join(Struct, tag="join", forbid_unknown_fields=True):
    """Take a seat with its token; answered by `Joined`, then `Played` from command
    `since + 1` on (the catch-up), then every new `Played` as it happens."""

    game: GameId
    seat: Side
    token: Token
    since: Count = 0


class Watch(Struct, tag="watch", forbid_unknown_fields=True):
    """Follow a game as a spectator: `Joined` (seat null), the catch-up, then live."""

    game: GameId
    since: Count = 0


class Play(Struct, tag="command", forbid_unknown_fields=True):
    """A seat's command. `id` is the client's name for it: a command whose id the game has
    already accepted is not applied again (the answer is its `Accepted` once more). `at`, when
    given, is the number of commands the client has seen: a command sent for an older position
    is refused instead of applied to a game that moved on."""

    id: CommandId
    command: CommandBody
    at: Count | None = None


class Resign(Struct, tag="resign", forbid_unknown_fields=True):
    """The joined seat gives up (an AI that forfeits under the seat step's policy)."""

    id: CommandId
    reason: Reason = ""


class GetReplay(Struct, tag="replay", forbid_unknown_fields=True):
    """Ask for a game's replay file (finished or not); answered by `ReplayFile`."""

    game: GameId


ClientMessage = New | ListGames | Join | Watch | Play | Resign | GetReplay


# -- server -> client ----------------------------------------------------------------------


class Created(Struct, tag="created"):
    game: str
    map: str
    ruleset: str
    seed: int
    sides: list[str]
    tokens: dict[str, str]
    clock: float | None = None


class GameInfo(Struct):
    game: str
    map: str
    ruleset: str
    sides: list[str]
    commands: int
    to_play: str | None
    present: list[str]
    spectators: int
    result: dict[str, Any] | None
    created: float


class Games(Struct, tag="games"):
    games: list[GameInfo]


class Joined(Struct, tag="joined"):
    game: str
    seat: str | None  # None for a spectator
    map: str
    sha256: str
    ruleset: str
    seed: int
    sides: list[str]
    commands: int  # the catch-up ends with Played number `commands`
    to_play: str | None
    result: dict[str, Any] | None
    clock: float | None = None


class Played(Struct, tag="played"):
    game: str
    n: int  # 1 for the game's first command
    side: str
    id: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    to_play: str | None  # who plays next; None once the game is over


class Accepted(Struct, tag="accepted"):
    id: str
    n: int


class Refused(Struct, tag="refused"):
    id: str
    reason: str


class Ended(Struct, tag="ended"):
    game: str
    result: dict[str, Any]


class Presence(Struct, tag="presence"):
    game: str
    present: list[str]  # the sides with a seat connected now
    spectators: int


class ReplayFile(Struct, tag="replay"):
    game: str
    record: dict[str, Any]


class Error(Struct, tag="error"):
    code: str
    message: str


ServerMessage = (Created | Games | Joined | Played | Accepted | Refused | Ended | Presence
                 | ReplayFile | Error)

ERROR_CODES = {
    "malformed": "not JSON, or not one of the messages of docs/online.md (the message says "
                 "which field)",
    "unknown-game": "no game has that id",
    "unknown-map": "the server offers no map of that name",
    "bad-token": "the token does not open that seat",
    "not-seated": "a command or resignation from a connection that has not joined a seat",
    "rate-limited": "too many messages; slow down (the connection closes if it goes on)",
    "full": "the server holds as many games as it may",
    "storage": "the server could not store the command; it was not applied",
}

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


class Malformed(Exception):
    """A message that is not one of the protocol's, with the sentence to answer it by."""


def decode_client(data: str | bytes) -> ClientMessage:
    """A client's message, or Malformed saying what is wrong with it."""
    if isinstance(data, str):
        data = data.encode()
    if len(data) > MAX_MESSAGE_BYTES:
        raise Malformed(f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
    try:
        message: ClientMessage = _client_decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise Malformed(str(exc).replace("`$.", "`").replace("`$`", "the message")) from None
    return message


def decode_server(data: str | bytes) -> ServerMessage:
    """A server's message; a message of no known shape is a ValueError (a foreign server)."""
    try:
        message: ServerMessage = _server_decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise ValueError(f"the server sent a message this client does not know ({exc})") from None
    return message


def encode(message: Struct) -> bytes:
    return _encoder.encode(message)


def to_builtins(message: Struct) -> Any:
    """A message as plain JSON values (what `online watch --json` prints)."""
    return msgspec.to_builtins(message)

