"""Events: past-tense records of what happened, for the log, the views and replays."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    def to_json(self) -> dict[str, Any]:
        return {"type": type(self).__name__, **asdict(self)}


@dataclass(frozen=True)
class Moved(Event):
    entity: int
    x0: int
    y0: int
    x: int
    y: int


@dataclass(frozen=True)
class Attacked(Event):
    attacker: int
    target: int


@dataclass(frozen=True)
class Damaged(Event):
    entity: int
    amount: int
    hp: int


@dataclass(frozen=True)
class Died(Event):
    entity: int
    kind: str
    side: str


@dataclass(frozen=True)
class Spawned(Event):
    entity: int
    kind: str
    side: str
    x: int
    y: int


@dataclass(frozen=True)
class TurnEnded(Event):
    side: str
    round: int


@dataclass(frozen=True)
class Won(Event):
    side: str  # 'draw' when nobody won
    reason: str


@dataclass(frozen=True)
class Pushed(Event):
    entity: int
    x0: int
    y0: int
    x: int
    y: int


@dataclass(frozen=True)
class RuleFormed(Event):
    rule: str


@dataclass(frozen=True)
class RuleBroken(Event):
    rule: str


@dataclass(frozen=True)
class Transformed(Event):
    entity: int
    old: str
    new: str


@dataclass(frozen=True)
class Destroyed(Event):
    """A thing removed by a rule (SINK, DEFEAT, MELT, OPEN/SHUT, WEAK)."""

    entity: int
    kind: str
    cause: str


@dataclass(frozen=True)
class Took(Event):
    side: str
    heap: int
    count: int
    left: int
    right: int
