"""Minions: attack an enemy in range, or march toward the enemy headquarters."""

from __future__ import annotations

from components import Kind, Moves, Position, Team
from game.events import Event
from game.world import World
from systems.board import DIRS, Cell, Occupancy, distance_field
from systems.combat import TurnFoes, hit, nearest_target
from systems.movement import move_unit
from systems.units_rules import unit_effects

# (goals, solid cells, size) -> distance field. Walls rarely move, and a search ends many turns
# on the same board, so the breadth-first field is computed once per board, not per turn.
_FIELDS: dict[tuple, dict[Cell, int]] = {}


# the last field asked for: (goals, solid cells, width, height, field); a frozenset of solid
# cells is shared by the occupancies of every state that has it (OccupancyCache), so the same
# object means the same cells, without making a frozenset of them every march
_last: list[tuple[tuple[Cell, ...], object, int, int, dict[Cell, int]]] = []


def _field_to(occ: Occupancy, goals: list[Cell]) -> dict[Cell, int]:
    """distance_field(occ, goals), memoised on what it depends on; the result is read-only."""
    wanted = tuple(goals)
    solid = occ.solid
    if _last:
        last = _last[0]
        if last[1] is solid and last[0] == wanted and last[2] == occ.width \
                and last[3] == occ.height:
            return last[4]
    key = (wanted, frozenset(solid), occ.width, occ.height)
    field = _FIELDS.get(key)
    if field is None:
        if len(_FIELDS) >= 64:
            _FIELDS.clear()
        field = _FIELDS[key] = distance_field(occ, goals)
    if type(solid) is frozenset:  # (a set may change in place: never taken for its cells)
        _last[:] = [(wanted, solid, occ.width, occ.height, field)]
    return field


def march(world: World, occ: Occupancy, side: str, foes: TurnFoes | None = None) -> list[Event]:
    """Each of `side`'s minions, by id, attacks (nearest, weakest, lowest id) or walks.

    Walking follows a breadth-first distance field to the enemy headquarters, so minions go
    round walls instead of getting stuck on them; a step is taken only to a free cell that is
    strictly nearer, trying north, east, south, west in that order. A minion stops on a deadly
    cell, and what its cell holds acts on it as on a hero (DEFEAT, SINK, HOT/MELT, WEAK).
    `foes`: the TurnFoes of `side` the other systems of its end of turn look through, if any.
    """
    events: list[Event] = []
    goals = [(p.x, p.y) for _e, (p, k, t) in world.query(Position, Kind, Team)
             if k.name == "hq" and t.side != side]
    field = None
    if foes is None:
        foes = TurnFoes(world, side)  # found once: a march moves only `side`'s minions and hits
    for entity in [e for e, (kind, team) in world.query(Kind, Team)
                   if kind.name == "minion" and team.side == side]:
        if not world.alive(entity):
            continue
        target = nearest_target(world, occ, entity, units_only=False, foes=foes())
        if target is not None:
            events += hit(world, entity, target)
            continue
        if not goals:
            continue
        if field is None:
            field = _field_to(occ, goals)
        pos = world.get(entity, Position)
        here = (pos.x, pos.y)
        steps = world.get(entity, Moves).mp
        for _ in range(steps):
            best = field.get(here)
            if best is None:
                break
            nxt = None
            for dx, dy in DIRS:
                cell = (here[0] + dx, here[1] + dy)
                d = field.get(cell)
                if d is not None and d < best and cell not in occ.units and cell not in occ.solid:
                    best, nxt = d, cell
            if nxt is None:
                break
            del occ.units[here]
            occ.units[nxt] = side
            here = nxt
            if here in occ.deadly:
                break
        if here != (pos.x, pos.y):
            events += move_unit(world, entity, here[0], here[1], 0)
            effects, _on_win = unit_effects(world, entity)  # WIN is for heroes
            events += effects
    return events
