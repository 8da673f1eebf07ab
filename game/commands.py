"""Commands: what a player (human, AI or replay) asks the engine to do.

Each is a frozen, JSON-serialisable dataclass named as an imperative. Rulesets decide which are
legal; `to_json` / `from_json` carry them through replays and saves.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from game.errors import UserError


@dataclass(frozen=True)
class Command:
    def to_json(self) -> dict[str, Any]:
        return {"type": type(self).__name__, **asdict(self)}


@dataclass(frozen=True)
class Move(Command):
    """Walk a unit to a reachable cell."""

    unit: int
    x: int
    y: int


@dataclass(frozen=True)
class Attack(Command):
    """Hit a target in range and in sight."""

    unit: int
    target: int


@dataclass(frozen=True)
class EndTurn(Command):
    """Hand the turn to the other side (buildings and minions act first)."""


@dataclass(frozen=True)
class Step(Command):
    """Move everything that IS YOU one cell: direction is one of 'u', 'd', 'l', 'r'."""

    direction: str


@dataclass(frozen=True)
class Wait(Command):
    """Let a turn pass without moving (MOVE things still move)."""


COMMANDS: dict[str, type[Command]] = {
    cls.__name__: cls for cls in (Move, Attack, EndTurn, Step, Wait)
}


def register(cls: type[Command]) -> type[Command]:
    """Make a command class known to from_json (rulesets defined elsewhere call this)."""
    COMMANDS[cls.__name__] = cls
    return cls


def from_json(raw: Any) -> Command:
    """Rebuild a command from its JSON form; anything malformed is a UserError."""
    if not isinstance(raw, dict) or "type" not in raw:
        raise UserError(f"command {raw!r} is not an object with a 'type'.")
    cls = COMMANDS.get(raw["type"])
    if cls is None:
        raise UserError(f"unknown command type {raw['type']!r}; known: {', '.join(COMMANDS)}.")
    names = {f.name: f.type for f in fields(cls)}
    args = {k: v for k, v in raw.items() if k != "type"}
    if set(args) != set(names):
        raise UserError(f"command {raw!r} needs exactly the fields {sorted(names)}.")
    import msgspec  # the dataclass is the schema; imported only where files are read

    try:
        command: Command = msgspec.convert(args, cls, strict=True)
    except msgspec.ValidationError as exc:
        raise UserError(f"command {raw!r} has a field of the wrong type "
                        f"({str(exc).replace('`$.', '`')}).") from None
    return command


@register
@dataclass(frozen=True)
class Take(Command):
    """Octal games: take `count` tokens from heap `heap`, leaving `left` on the left of the gap.

    Heaps are numbered in reading order from 0. What stays is `left` tokens and the rest of
    the heap beyond the gap; either may be empty, as the game's code allows.
    """

    heap: int
    count: int
    left: int
