"""Events in plain sentences: one place for every front end that tells what happened.

The plain terminal client prints these after each command (the opponent's turn included) and
the Textual client's log shows them. Names are read from the world as it is after the events,
so a thing that is gone is named from what its event carries.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from game.world import World


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
        return f"{event.rule} is formed"
    if isinstance(event, RuleBroken):
        return f"{event.rule} is broken"
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
