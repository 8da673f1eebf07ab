"""Minions: attack an enemy in range, or march toward the enemy headquarters."""

from __future__ import annotations

from components import Kind, Moves, Position, Team
from game.events import Event
from game.world import World
from systems.board import DIRS, Cell, Occupancy, distance_field
from systems.combat import TurnFoes, hit, nearest_target
from systems.movement import move_unit
from systems.units_rules import unit_effects

# the steps from every cell to some goals (a distance field) and each cell's steps down it
Way = tuple[dict[Cell, int], dict[Cell, tuple[Cell, ...]]]

# (goals, solid cells, size) -> the way there. Walls rarely move, and a search ends many turns
# on the same board, so the breadth-first field is computed once per board, not per turn.
_FIELDS: dict[tuple, Way] = {}
_NOWHERE: tuple[Cell, ...] = ()

# the last way asked for to each goals: (solid cells, width, height, way); a frozenset of
# solid cells is shared by the occupancies of every state that has it (OccupancyCache), so the
# same object means the same cells, without making a frozenset of them every march (each side
# marches to its own goals, turn about)
_last: dict[tuple[Cell, ...], tuple[object, int, int, Way]] = {}


def _way_to(occ: Occupancy, goals: list[Cell]) -> Way:
    """The Way to `goals` on the board of `occ`, memoised on what it depends on; read-only."""
    wanted = tuple(goals)
    solid = occ.solid
    last = _last.get(wanted)
    if last is not None and last[0] is solid and last[1] == occ.width \
            and last[2] == occ.height:
        return last[3]
    key = (wanted, frozenset(solid), occ.width, occ.height)
    way = _FIELDS.get(key)
    if way is None:
        if len(_FIELDS) >= 64:
            _FIELDS.clear()
        field = distance_field(occ, goals)
        way = _FIELDS[key] = (field, _downhill(field))
    if type(solid) is frozenset:  # (a set may change in place: never taken for its cells)
        if len(_last) >= 16:
            _last.clear()
        _last[wanted] = (solid, occ.width, occ.height, way)
    return way


def _downhill(field: dict[Cell, int]) -> dict[Cell, tuple[Cell, ...]]:
    """Each cell's neighbours strictly nearer the goals, north, east, south, west. Two cells
    side by side in a breadth-first field differ by one step at most, so all of them are one
    step nearer, and the first free one is the step a march takes."""
    found = {}
    for (x, y), d in field.items():
        found[(x, y)] = tuple(cell for cell in [(x + dx, y + dy) for dx, dy in DIRS]
                              if field.get(cell, d) < d)
    return found


def march(world: World, occ: Occupancy, side: str, foes: TurnFoes) -> list[Event]:
    """Each of `side`'s minions, by id, attacks (nearest, weakest, lowest id) or walks.

    Walking follows a breadth-first distance field to the enemy headquarters, so minions go
    round walls instead of getting stuck on them; a step is taken only to a free cell that is
    strictly nearer, trying north, east, south, west in that order. A minion stops on a deadly
    cell, and what its cell holds acts on it as on a hero (DEFEAT, SINK, HOT/MELT, WEAK).
    `foes`: the TurnFoes of `side` the other systems of its end of turn look through too
    (found once: a march moves only `side`'s minions and hits).
    """
    events: list[Event] = []
    goals = [(p.x, p.y) for _e, (p, k, t) in world.query(Position, Kind, Team)
             if k.name == "hq" and t.side != side]
    downhill = None
    units, solid, deadly = occ.units, occ.solid, occ.deadly
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
        if downhill is None:
            downhill = _way_to(occ, goals)[1]
        pos = world.get(entity, Position)
        here = start = (pos.x, pos.y)
        for _ in range(world.get(entity, Moves).mp):
            for nxt in downhill.get(here, _NOWHERE):
                if nxt not in units and nxt not in solid:
                    break
            else:
                break  # no free cell nearer: it stays
            del units[here]
            units[nxt] = side
            here = nxt
            if here in deadly:
                break
        if here != start:
            events += move_unit(world, entity, here[0], here[1], 0)
            effects, _on_win = unit_effects(world, entity)  # WIN is for heroes
            events += effects
    return events
