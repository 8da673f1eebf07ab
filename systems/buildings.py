"""Towers and headquarters fire at the end of their side's turn."""

from __future__ import annotations

from components import Attack, Health, Kind, Team
from game.events import Event
from game.world import World
from systems.board import BUILDINGS
from systems.combat import TurnFoes, hit, nearest_target


def fire(world: World, side: str, foes: TurnFoes) -> list[Event]:
    """Each building of `side` hits the nearest enemy unit in range (ties: lowest hp, then id).

    `foes`: the TurnFoes of `side` the other systems of its end of turn look through too
    (found once: buildings only take hit points off).
    """
    events: list[Event] = []
    for entity, health in [(e, health) for e, (kind, team, _attack, health)
                           in world.query(Kind, Team, Attack, Health)
                           if team.side == side and kind.name in BUILDINGS]:
        if health.hp <= 0:
            continue
        target = nearest_target(world, None, entity, units_only=True, foes=foes())
        if target is not None:
            events += hit(world, entity, target)
    return events
