"""The words of the side panel: status, rules in force and the event log (no pyglet here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from components import Kind, UnitClass
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

if TYPE_CHECKING:
    from game.engine import Engine

LOG_LINES = 8


def name_of(world: World, entity: int) -> str:
    """'duelist #4' for a hero, 'tower #9' for anything else still alive, '#12' once gone."""
    if not world.alive(entity):
        return f"#{entity}"
    unit_class = world.try_get(entity, UnitClass)
    if unit_class is not None:
        return f"{unit_class.name} #{entity}"
    kind = world.try_get(entity, Kind)
    return f"{kind.name} #{entity}" if kind is not None else f"#{entity}"


def describe_event(world: World, event: Event) -> str:
    """One short line per event, for the log panel."""
    if isinstance(event, Moved):
        return f"{name_of(world, event.entity)} -> {event.x},{event.y}"
    if isinstance(event, Attacked):
        return f"{name_of(world, event.attacker)} hits {name_of(world, event.target)}"
    if isinstance(event, Damaged):
        return f"  {name_of(world, event.entity)} -{event.amount} (hp {event.hp})"
    if isinstance(event, Died):
        return f"{event.side} {event.kind} #{event.entity} dies"
    if isinstance(event, Spawned):
        return f"{event.side} {event.kind} appears at {event.x},{event.y}"
    if isinstance(event, TurnEnded):
        return f"-- {event.side} ends round {event.round}"
    if isinstance(event, Won):
        return f"** {event.side}: {event.reason}"
    if isinstance(event, Pushed):
        return f"{name_of(world, event.entity)} pushed -> {event.x},{event.y}"
    if isinstance(event, RuleFormed):
        return f"rule: {event.rule}"
    if isinstance(event, RuleBroken):
        return f"rule gone: {event.rule}"
    if isinstance(event, Transformed):
        return f"{event.old} #{event.entity} becomes {event.new}"
    if isinstance(event, Destroyed):
        return f"{event.kind} #{event.entity} destroyed ({event.cause})"
    if isinstance(event, Took):
        return (f"{event.side} takes {event.count} from heap {event.heap} "
                f"(leaves {event.left} + {event.right})")
    return type(event).__name__


def event_lines(engine: Engine, count: int = LOG_LINES) -> list[str]:
    """The last `count` events in words, oldest first."""
    recent: list[Event] = []
    for entry in reversed(engine.history):
        recent[:0] = entry.events
        if len(recent) >= count:
            break
    return [describe_event(engine.world, e) for e in recent[-count:]]


def rule_lines(world: World) -> list[str]:
    """The rules in force (the 'rules' resource), or a dash when the ruleset has none."""
    rules = world.resource("rules")
    if not rules:
        return ["-"]
    return [str(rule) for rule in rules]


def status_line(engine: Engine) -> str:
    return engine.ruleset.describe(engine.world)
