"""The words of the side panel: names, status and the rules in force (no pyglet here; the log
is game/session/narrate.py's Chronicle)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from components import Kind, UnitClass
from game.world import World

if TYPE_CHECKING:
    from game.engine import Engine


def name_of(world: World, entity: int) -> str:
    """'duelist #4' for a hero, 'tower #9' for anything else still alive, '#12' once gone."""
    if not world.alive(entity):
        return f"#{entity}"
    unit_class = world.try_get(entity, UnitClass)
    if unit_class is not None:
        return f"{unit_class.name} #{entity}"
    kind = world.try_get(entity, Kind)
    return f"{kind.name} #{entity}" if kind is not None else f"#{entity}"


def rule_lines(world: World) -> list[str]:
    """The rules in force (the 'rules' resource), or a dash when the ruleset has none."""
    rules = world.resource("rules")
    if not rules:
        return ["-"]
    return [str(rule) for rule in rules]


def status_line(engine: Engine) -> str:
    return engine.ruleset.describe(engine.world)
