"""A seat at a game a server holds: the local engine mirrors the server's, command by command.

`rulefront online play` gives the window and the Textual client a `Mirror` instead of a second
local seat. The player's commands are checked locally (the same `why_illegal`, so a refusal
reads at once) and sent over the link; nothing is applied until the server broadcasts it, so
the local game is always the server's, in the server's order: its own commands and the other
seat's alike arrive as `played` messages (docs/online.md) and are applied here one by one.

The link is anything with `send(command)`, `poll() -> list[dict]` (the server's messages as
plain JSON objects, plus `{"type": "connection", "state": ...}` notices) and `close()`;
game/net/link.py runs one on a thread of its own. Nothing here blocks or knows the transport.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

from components.match import DRAW
from game.commands import Command, from_json
from game.engine import Engine, Entry, Impossible
from game.session.narrate import names, sentences
from game.session.seat import Forfeited


class Link(Protocol):
    def send(self, command: Command) -> None: ...

    def poll(self) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Update:
    """What one `pull` brought: commands applied (their history entries) and a sentence to
    show (a refusal, the end, the connection)."""

    entries: tuple[Entry, ...] = ()
    notice: str = ""
    lines: tuple[str, ...] = ()  # the applied commands' events in sentences, for a log


class Mirror:
    """The local copy of one server game, played from one side."""

    def __init__(self, engine: Engine, side: str, link: Link) -> None:
        self.engine = engine
        self.side = side
        self.link = link
        self.pending: Command | None = None  # sent, not yet accepted or refused
        self.present: list[str] = []
        self.connection = "connecting"
        self.forfeit: Forfeited | None = None  # a side resigned or ran out of its clock
        self.result: dict[str, Any] | None = None
        self.waiting: deque[dict[str, Any]] = deque()

    @property
    def over(self) -> bool:
        return self.engine.over or self.forfeit is not None or self.result is not None

    @property
    def my_turn(self) -> bool:
        """The local player may act: their side is to play, nothing is in flight, the game is
        on, and the mirror has caught up with every command the server told of."""
        return (not self.over and self.engine.side == self.side and self.pending is None
                and not self.waiting)

    def send(self, command: Command) -> str | None:
        """Send the player's command; the sentence why not when it cannot go (the world is
        untouched either way: the server's broadcast applies it)."""
        if self.over:
            return "The game is over."
        if self.engine.side != self.side:
            return f"It is {self.engine.side}'s turn: wait for their move."
        if self.pending is not None or self.waiting:
            return "Waiting for the server to answer the last command."
        why = self.engine.why_illegal(command)
        if why is not None:
            return why
        self.pending = command
        self.link.send(command)
        return None

    def pull(self, limit: int | None = 1) -> Update:
        """Read the link and apply up to `limit` commands the server played (None: all), so a
        window can animate them one at a time; a long catch-up is applied at once."""
        notice = ""
        for message in self.link.poll():
            kind = message.get("type")
            if kind == "played":
                self.waiting.append(message)
            else:
                notice = self._note(message) or notice
        if limit is not None and len(self.waiting) > 8:
            limit = None  # catching up: no one wants to watch fifty moves slide by
        entries: list[Entry] = []
        lines: list[str] = []
        while self.waiting and (limit is None or len(entries) < limit):
            message = self.waiting.popleft()
            before = names(self.engine.world)
            entry, why = self._apply(message)
            if why:
                notice = why
            if entry is not None:
                entries.append(entry)
                lines += sentences(self.engine.world, entry.events, before)
        return Update(tuple(entries), notice, tuple(lines))

    def _apply(self, message: dict[str, Any]) -> tuple[Entry | None, str]:
        engine = self.engine
        number = int(message.get("n", 0))
        if number <= len(engine.history):
            return None, ""  # already applied (a catch-up after a reconnect repeats some)
        if number != len(engine.history) + 1:
            return None, (f"the server skipped from command {len(engine.history)} to "
                          f"{number}; reconnect to catch up")
        command = from_json(message["command"])
        result = engine.submit(command)
        if isinstance(result, Impossible):  # only a server on another version gets here
            return None, f"the server played a command this game refuses: {result.reason}"
        if self.pending is not None and message.get("side") == self.side:
            self.pending = None
        return engine.history[-1], ""

    def _note(self, message: dict[str, Any]) -> str:
        kind = message.get("type")
        if kind == "refused":
            self.pending = None
            return str(message.get("reason", "the server refused the command"))
        if kind == "accepted":
            return ""
        if kind == "presence":
            self.present = list(message.get("present", []))
            return ""
        if kind == "joined":
            self.present = list(message.get("present", self.present))
            self.result = message.get("result") or self.result
            return ""
        if kind == "ended":
            self.result = dict(message.get("result") or {})
            forfeit = self.result.get("forfeit")
            if isinstance(forfeit, dict) and not self.engine.over:
                self.forfeit = Forfeited(str(forfeit.get("side", "")),
                                         str(forfeit.get("seat", "online")),
                                         str(forfeit.get("reason", "")))
            return self.end_sentence()
        if kind == "connection":
            self.connection = str(message.get("state", ""))
            return str(message.get("sentence", ""))
        if kind == "error":
            self.pending = None
            return str(message.get("message", "the server answered with an error"))
        return ""

    def end_sentence(self) -> str:
        outcome = self.engine.outcome
        if self.forfeit is not None:
            return f"{self.forfeit.sentence}."
        if outcome is not None:
            return f"{outcome.winner} wins: {outcome.reason}" if outcome.winner != DRAW \
                else f"the game is drawn: {outcome.reason}"
        result = self.result or {}
        return f"the game is over: {result.get('winner', '')} {result.get('reason', '')}".strip()

    def seat_line(self) -> str:
        """'red: you   blue: connected' for the footer."""
        parts = []
        for side in self.engine.ruleset.sides:
            state = "you" if side == self.side else (
                "connected" if side in self.present else "away")
            parts.append(f"{side}: {state}")
        link = "" if self.connection == "connected" else f"   ({self.connection})"
        return "   ".join(parts) + link
