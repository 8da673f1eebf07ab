"""What the rules in force make of one skirmish unit or building: its mask and its numbers.

A unit's mask is its kind's (HERO, MINION, TOWER, HQ) with its side's (RED, BLUE) and, for a
hero, its class's (RANGER...): `RED IS WEAK` makes every red unit and building WEAK. Its move
points, damage, range, armour and healing are its components' plus what its properties add
(data/properties.yaml `stats`: FAST, SLOW, STRONG, FAR, TOUGH, HEAL, MOVE), and STOP roots it.
Most games name no unit in any rule: then every answer is the components' own, found without
looking further (`named` is empty).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from components import Actions, Attack, Health, Kind, Moves, Team, UnitClass
from components.resources import PROPS_KEY
from game.world import World
from systems.rules import Prop

STOP = int(Prop.STOP)


@cache
def unit_nouns() -> frozenset[str]:
    """The mask keys that name units: unit and building kinds, sides and hero classes."""
    from game.data import SIDES, units

    return frozenset({"hero", "minion", "tower", "hq", *SIDES, *units().heroes})


_named: tuple[Any, frozenset[str]] = (None, frozenset())


def named(props: dict[str, int]) -> frozenset[str]:
    """The unit nouns `props` gives a property to (worked out once per masks dict: a rule
    change stores a new one, never changes one in place)."""
    global _named
    if _named[0] is not props:
        nouns = unit_nouns()
        _named = (props, frozenset(k for k, mask in props.items() if mask and k in nouns))
    return _named[1]


def unit_mask(world: World, entity: int, props: dict[str, int] | None = None) -> int:
    """The properties the rules give this unit or building: kind | side | class."""
    if props is None:
        props = world.resource(PROPS_KEY, {})
    kind = world.get(entity, Kind).name
    mask = props.get(kind, 0)
    if not named(props):
        return mask
    team = world.try_get(entity, Team)
    if team is not None:
        mask |= props.get(team.side, 0)
    cls = world.try_get(entity, UnitClass)
    if cls is not None:
        mask |= props.get(cls.name, 0)
    return mask


@dataclass(frozen=True, slots=True)
class Bonus:
    """What a mask adds to a unit's numbers."""

    moves: int = 0
    damage: int = 0
    range: int = 0
    armour: int = 0
    heal: int = 0
    rooted: bool = False


NONE = Bonus()
_bonuses: dict[int, Bonus] = {0: NONE}


def bonus(mask: int) -> Bonus:
    """The sum of the `stats` of the properties in `mask` (STOP: rooted)."""
    found = _bonuses.get(mask)
    if found is None:
        from game.data import properties

        rows = [info for info in properties().values() if mask & info.bit]
        found = _bonuses[mask] = Bonus(
            sum(r.moves for r in rows), sum(r.damage for r in rows),
            sum(r.range for r in rows), sum(r.armour for r in rows),
            sum(r.heal for r in rows), bool(mask & STOP))
    return found


def unit_bonus(world: World, entity: int, props: dict[str, int] | None = None) -> Bonus:
    """`bonus` of the unit's mask; NONE at once when no rule names a unit."""
    if props is None:
        props = world.resource(PROPS_KEY, {})
    if not named(props):
        return NONE
    return bonus(unit_mask(world, entity, props))


def reach(world: World, entity: int) -> int:
    """The Manhattan range its attacks reach now."""
    extra = unit_bonus(world, entity).range
    return max(1, world.get(entity, Attack).range + extra) if extra else \
        world.get(entity, Attack).range


def damage(world: World, attacker: int, target: int) -> int:
    """What one hit of `attacker` takes off `target` now (at least 1 when armour is at play)."""
    base = world.get(attacker, Attack).damage
    props = world.resource(PROPS_KEY, {})
    if not named(props):
        return base
    dealt = base + unit_bonus(world, attacker, props).damage
    return max(1, dealt - unit_bonus(world, target, props).armour)


def fresh_moves(world: World, entity: int) -> int:
    """The move points it is dealt at the start of its side's turn: none when STOP roots it,
    else its own plus what FAST, SLOW and MOVE add (at least 1)."""
    own = world.get(entity, Moves).max_mp
    extra = unit_bonus(world, entity)
    if extra is NONE:
        return own
    if extra.rooted:
        return 0
    return max(1, own + extra.moves) if extra.moves else own


def start_turn(world: World, side: str) -> None:
    """Deal `side`'s units their move points and attacks, and heal the HEAL ones."""
    props = world.resource(PROPS_KEY, {})
    any_named = bool(named(props))
    for entity, (team, moves, actions) in world.query(Team, Moves, Actions):
        if team.side == side:
            mp = fresh_moves(world, entity) if any_named else moves.max_mp
            if moves.mp != mp:
                world.set(entity, Moves, "mp", mp)
            if actions.ap != actions.max_ap:
                world.set(entity, Actions, "ap", actions.max_ap)
    if not any_named:
        return
    for entity, (team, health) in world.query(Team, Health):
        if team.side != side or health.hp <= 0:
            continue
        amount = unit_bonus(world, entity, props).heal
        if amount and health.hp < health.max_hp:
            world.update(entity, Health, hp=min(health.max_hp, health.hp + amount))
