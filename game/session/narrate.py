"""Events in plain sentences: one place for every front end that tells what happened.

The plain terminal client prints these after each command (the opponent's turn included).
`Chronicle` is the log of a whole game the window and the Textual client show: each command's
events are narrated once, when it is played, with the names things had just before it (so a
sage that dies keeps its name in the line that killed it), kept for the whole game (and in
its save), and dropped with the command when it is undone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from components import Kind, Team, UnitClass, Word
from game.events import (
    Attacked,
    Damaged,
    Destroyed,
    Died,
    Event,
    Moved,
    Pushed,
    RuleBroken,
    RuleFormed,
    Spawned,
    Took,
    Transformed,
    TurnEnded,
    Won,
)
from game.session import rulesense
from game.world import World

if TYPE_CHECKING:
    from game.engine import Engine, Entry


def name_of(world: World, entity: int, gone: dict[int, str] | None = None) -> str:
    """'blue sage', 'red tower', 'word WATER', 'block'; for a thing that is gone, the name its
    death gave (`gone`), else '#12'."""
    if not world.alive(entity):
        return (gone or {}).get(entity, f"#{entity}")
    word = world.try_get(entity, Word)
    if word is not None:
        return f"word {word.text}"
    unit_class = world.try_get(entity, UnitClass)
    kind = world.try_get(entity, Kind)
    noun = unit_class.name if unit_class is not None else kind.name if kind is not None else "thing"
    team = world.try_get(entity, Team)
    return f"{team.side} {noun}" if team is not None else noun


def sentence(world: World, event: Event, gone: dict[int, str] | None = None) -> str:
    """One event as a sentence a player reads in the log."""
    def name_of(world: World, entity: int) -> str:
        return _name(world, entity, gone)

    if isinstance(event, Moved):
        return f"{name_of(world, event.entity)} moves to {event.x},{event.y}"
    if isinstance(event, Pushed):
        return f"{name_of(world, event.entity)} is pushed to {event.x},{event.y}"
    if isinstance(event, Attacked):
        return f"{name_of(world, event.attacker)} attacks {name_of(world, event.target)}"
    if isinstance(event, Damaged):
        return f"{name_of(world, event.entity)} takes {event.amount} ({max(event.hp, 0)} left)"
    if isinstance(event, Died):
        return f"{(gone or {}).get(event.entity, gone_name(event))} dies"
    if isinstance(event, Spawned):
        return f"a {event.side} {event.kind} appears at {event.x},{event.y}"
    if isinstance(event, TurnEnded):
        return f"{event.side} ends the turn (round {event.round})"
    if isinstance(event, Won):
        if event.side == "draw":
            return f"the game is drawn: {event.reason}"
        return f"{event.side} wins: {event.reason}"
    if isinstance(event, RuleFormed):
        return rulesense.told(event.rule, "formed")
    if isinstance(event, RuleBroken):
        return rulesense.told(event.rule, "broken")
    if isinstance(event, Transformed):
        return f"{event.old} #{event.entity} becomes {event.new}"
    if isinstance(event, Destroyed):
        return f"{event.kind} #{event.entity} is destroyed ({event.cause})"
    if isinstance(event, Took):
        rest = " and ".join(str(n) for n in (event.left, event.right) if n) or "nothing"
        return f"{event.side} takes {event.count} from heap {event.heap}, leaving {rest}"
    return type(event).__name__


def names(world: World) -> dict[int, str]:
    """The name of every thing on a side now: taken before a command, it names the fallen."""
    return {entity: name_of(world, entity) for entity, _team in world.query(Team)}


def sentences(world: World, events: Sequence[Event],
              before: dict[int, str] | None = None) -> list[str]:
    """The events in sentences; an attack and the damage it did read as one:
    'red ranger hits blue duelist for 3 (8 left)'. `before` (from `names` taken before the
    command) names the things the command destroyed."""
    gone = {e.entity: gone_name(e) for e in events if isinstance(e, Died)}
    gone.update(before or {})
    gone.update((e.entity, e.kind) for e in events if isinstance(e, Destroyed))
    lines: list[str] = []
    index = 0
    while index < len(events):
        event = events[index]
        after = events[index + 1] if index + 1 < len(events) else None
        if (isinstance(event, Attacked) and isinstance(after, Damaged)
                and after.entity == event.target):
            lines.append(f"{name_of(world, event.attacker, gone)} hits "
                         f"{name_of(world, event.target, gone)} "
                         f"for {after.amount} ({max(after.hp, 0)} left)")
            index += 2
            continue
        lines.append(sentence(world, event, gone))
        index += 1
    return lines


def gone_name(event: Died) -> str:
    return f"{event.side} {event.kind}" if event.side else event.kind


_name = name_of


@dataclass(frozen=True)
class Told:
    """What one command's events said when it was played: the round it was played in (None in
    games without rounds), the side that played it, and its lines."""

    round: int | None
    side: str
    lines: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"round": self.round, "side": self.side, "lines": list(self.lines)}


def turn_of(engine: Engine) -> tuple[int | None, str]:
    """(round, side to play) now; the round is None when the ruleset's report has none."""
    found = engine.ruleset.report(engine.world).get("round")
    return (int(found) if isinstance(found, int) else None), engine.side


class Chronicle:
    """The log of one game, in step with the engine's history.

    `follow()` after every command, undo or redo: an entry undone is dropped, a new one is
    narrated with the names of `names(world)` as they were at the last follow, so a front end
    that follows after each command names everything as it was before that command. `told`
    (a save's log, one `Told` per command) is taken as it is; without it, or when it does not
    match the history, the game is narrated again by taking its commands back and playing
    them forward (exact, as every search in this project does)."""

    def __init__(self, engine: Engine, told: Sequence[Told] | None = None) -> None:
        self.engine = engine
        self.entries: list[tuple[Entry, Told]] = []
        self.version = 0  # bumps whenever the log changes
        self.cuts = 0  # bumps whenever entries are dropped (undone): shown logs start over
        if told is not None and len(told) == len(engine.history):
            self.entries = list(zip(engine.history, told, strict=True))
        elif engine.history:
            self._narrate_again()
        self.known = names(engine.world)
        self.turn = turn_of(engine)

    def follow(self) -> bool:
        """Catch up with the engine; True when the log changed."""
        history = self.engine.history
        keep = 0
        while keep < min(len(history), len(self.entries)) \
                and self.entries[keep][0] is history[keep]:
            keep += 1
        changed = keep < len(self.entries) or keep < len(history)
        if keep < len(self.entries):
            self.cuts += 1
        del self.entries[keep:]
        for entry in history[keep:]:
            self.entries.append((entry, self._told(entry, self.known, self.turn)))
        if changed:
            self.version += 1
            self.known = names(self.engine.world)
            self.turn = turn_of(self.engine)
        return changed

    def told(self) -> list[Told]:
        """One `Told` per command played, oldest first (what a save keeps)."""
        return [told for _entry, told in self.entries]

    def rows(self) -> list[tuple[str, str]]:
        """The log as ('heading', 'Round 2 - blue') and ('line', sentence) rows, oldest first:
        a heading wherever the round or the side playing changes."""
        rows: list[tuple[str, str]] = []
        last: tuple[int | None, str] | None = None
        for _entry, told in self.entries:
            if told.round is not None and (told.round, told.side) != last:
                rows.append(("heading", f"Round {told.round} - {told.side}"))
                last = (told.round, told.side)
            rows.extend(("line", line) for line in told.lines)
        return rows

    def _told(self, entry: Entry, before: dict[int, str],
              turn: tuple[int | None, str]) -> Told:
        lines = sentences(self.engine.world, entry.events, before)
        return Told(turn[0], turn[1], tuple(lines))

    def _narrate_again(self) -> None:
        engine = self.engine
        commands = []
        while engine.history:
            commands.append(engine.history[-1].command)
            engine.retract()
        for command in reversed(commands):
            before, turn = names(engine.world), turn_of(engine)
            engine.apply(command)
            self.entries.append((engine.history[-1], self._told(engine.history[-1], before,
                                                                turn)))
