"""Attacks, damage and death."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from components import Actions, Health, Kind, Position, Spawner, SpawnPoint, Team
from components import Attack as AttackStats
from components.resources import FALLEN_KEY, PROPS_KEY
from game.events import Attacked, Damaged, Died, Event
from game.world import World
from systems.board import Occupancy, in_sight
from systems.rules import Prop
from systems.stats import damage as damage_of
from systems.stats import named, unit_mask
from systems.stats import reach as reach_of

WIN = int(Prop.WIN)


def targets(world: World, occ: Occupancy, unit: int) -> list[int]:
    """Enemies (units and buildings) that `unit` can hit from where it stands, by id."""
    pos = world.get(unit, Position)
    side = world.get(unit, Team).side
    reach = reach_of(world, unit)
    x, y = pos.x, pos.y
    here = (x, y)
    found = []
    for entity, (tpos, team, health) in world.query(Position, Team, Health):
        if team.side == side or health.hp <= 0:
            continue
        # the distance inline (manhattan's): every unit is asked about, every legal_actions
        if abs(tpos.x - x) + abs(tpos.y - y) <= reach \
                and in_sight(occ, side, here, (tpos.x, tpos.y)):
            found.append(entity)
    return found


def hit(world: World, attacker: int, target: int) -> list[Event]:
    """`attacker` deals its damage to `target` (no checks: the caller decided it may): its
    own, with what STRONG adds and TOUGH takes off (systems.stats)."""
    damage = damage_of(world, attacker, target)
    hp = world.get(target, Health).hp - damage
    world.set(target, Health, "hp", hp)
    return [Attacked(attacker, target), Damaged(target, damage, hp)]


def attack(world: World, unit: int, target: int) -> list[Event]:
    """A hero's attack: spends its action for the turn."""
    world.set(unit, Actions, "ap", world.get(unit, Actions).ap - 1)
    return hit(world, unit, target)


def enemies(world: World, side: str) -> list[Any]:
    """The (entity, (Position, Team, Health, Kind)) of everything not of `side`, by id: what
    `foes_of` reads for the shooters of `side`, kept while no entity comes or goes
    (World.from_query): an end of turn asks twice, and a search asks again in the states it
    returns to."""
    return world.from_query(("enemies", side), _ENEMY_TYPES,
                            lambda found: [pair for pair in found if pair[1][1].side != side])


_ENEMY_TYPES = (Position, Team, Health, Kind)


Foe = tuple[int, int, int, Health, str]  # (x, y, entity, its Health, its kind's name)


def foes_of(world: World, side: str) -> list[Foe]:
    """`enemies(world, side)` as Foes sorted by column: what `nearest_target` looks through
    (two bisections to the columns in reach), found once for many shooters of `side` while
    none of them moves (a march moves only `side`'s minions; hits change hit points, read
    from each Health as it stands)."""
    return sorted([(pos.x, pos.y, entity, health, kind.name)
                   for entity, (pos, _team, health, kind) in enemies(world, side)])


class TurnFoes:
    """`foes_of(world, side)`, found when first asked and then kept, for the shooters of
    `side` through one end of its turn: the end-of-turn systems move and spawn only `side`'s
    units and hit the others, so no foe moves or comes, and one that falls keeps its 0 hp,
    which nearest_target passes over (the buildings and the minions of a side look through
    the same list)."""

    __slots__ = ("_found", "_side", "_world")

    def __init__(self, world: World, side: str) -> None:
        self._world = world
        self._side = side
        self._found: list[Foe] | None = None

    def __call__(self) -> list[Foe]:
        found = self._found
        if found is None:
            found = self._found = foes_of(self._world, self._side)
        return found


def nearest_target(world: World, occ: Occupancy | None, shooter: int, units_only: bool,
                   foes: list[Foe] | None = None) -> int | None:
    """The enemy in range nearest to `shooter`; ties go to the lowest hp, then lowest id.

    With `occ` the target must also be in sight; buildings shoot over everything. `foes`:
    `foes_of(world, side)` of the shooter's side, when a caller asks for many shooters of it
    in a row and no foe moves in between (the same answer, found once); without it, they
    are found here.
    """
    pos = world.get(shooter, Position)
    side = world.get(shooter, Team).side
    # reach_of, without its calls when no rule names a unit (every shooter, every turn)
    reach = reach_of(world, shooter) if named(world.resource(PROPS_KEY, {})) else \
        world.get(shooter, AttackStats).range
    x, y = pos.x, pos.y
    best: tuple[int, int, int] | None = None
    if foes is None:
        foes = foes_of(world, side)
    first = bisect_left(foes, (x - reach,))
    last = bisect_left(foes, (x + reach + 1,), first)
    # the distance inline and sight asked last: every tower and minion asks this each turn
    # (the least key wins, whatever the order the foes are looked at in)
    for fx, fy, entity, health, name in foes[first:last]:
        hp = health.hp
        if hp <= 0:
            continue
        dist = abs(fx - x) + abs(fy - y)
        if dist > reach:
            continue
        if units_only and name not in ("hero", "minion"):
            continue
        key = (dist, hp, entity)
        if best is not None and key >= best:
            continue
        if occ is not None and not in_sight(occ, side, (x, y), (fx, fy)):
            continue
        best = key
    return None if best is None else best[2]


def deaths(world: World) -> list[Event]:
    """Take every unit and building at 0 hp out of play; minions start their respawn clock."""
    dead = [entity for entity, health in world.query(Health) if health.hp <= 0]
    if not dead:
        return []  # the usual answer, asked after every command
    events: list[Event] = []
    props = world.resource(PROPS_KEY, {})
    for entity in dead:
        kind = world.get(entity, Kind).name
        side = world.get(entity, Team).side
        if unit_mask(world, entity, props) & WIN:  # a prize: its enemy wins (systems.win)
            world.set_resource(FALLEN_KEY, (*world.resource(FALLEN_KEY, ()), side))
        home = world.try_get(entity, SpawnPoint)
        if home is not None and world.alive(home.spawner):
            spawner = world.get(home.spawner, Spawner)
            world.update(home.spawner, Spawner,
                         respawns=(*spawner.respawns, spawner.respawn_after))
        world.destroy(entity)
        events.append(Died(entity, kind, side))
    return events
