"""Word rules on skirmish maps: heroes push blocks and words, and properties act on units.

A hero stepping into a cell of PUSH things shoves the whole line one cell (one move point) if
the line can move; units and buildings stop a push like STOP things. A unit (hero or minion)
ending a move on a DEFEAT or SINK cell dies (the SINK thing goes too), on a HOT cell if its kind
is MELT, or at once if it is WEAK and shares a cell; since those cells act on whoever enters,
walks stop at them (`Occupancy.deadly`). A hero on a WIN cell wins the match for its side.
'X IS Y' turns scenery, never units or buildings: when the map loads, when a push spells it,
and when a side ends its turn.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from components import Health, Kind, Moves, Position, Team
from components.resources import PROPS_KEY, RULES_KEY, SIZE_KEY
from game.events import Event
from game.world import World
from systems.board import DIRS
from systems.properties import transform
from systems.push import Board
from systems.rules import Prop, noun_kinds, reread_rules
from systems.zobrist import Table

UNIT_KINDS = frozenset({"hero", "minion", "tower", "hq"})
PUSH = int(Prop.PUSH)
_TABLE = Table(facing=False)


def board(world: World) -> Board:
    width, height = world.resource(SIZE_KEY)
    view = Board(world, width, height, _TABLE, blockers=UNIT_KINDS)
    view.reload()
    return view


def pushes_into(world: World, x: int, y: int) -> bool:
    """Whether the cell holds something PUSH (so stepping in means pushing)."""
    props = world.resource(PROPS_KEY, {})
    return any(props.get(world.get(e, Kind).name, 0) & PUSH for e in world.at(x, y))


_pushable: tuple[Any, frozenset[str]] = (None, frozenset())  # (masks, their PUSH kinds)


def pushable_kinds(props: dict[str, int]) -> frozenset[str]:
    """The kinds `props` makes PUSH, worked out once per masks (a rule change sets new ones;
    the dict is never changed in place)."""
    global _pushable
    if _pushable[0] is not props:
        _pushable = (props, frozenset(kind for kind, mask in props.items() if mask & PUSH))
    return _pushable[1]


def push_moves(world: World, unit: int) -> list[tuple[int, int]]:
    """Adjacent cells the unit can step into by pushing the line of PUSH things there."""
    if world.get(unit, Moves).mp < 1:
        return []
    pushable = pushable_kinds(world.resource(PROPS_KEY, {}))
    if not pushable:
        return []
    pos = world.get(unit, Position)
    width, height = world.resource(SIZE_KEY)
    at, get = world.at, world.get
    ahead = []
    for dx, dy in DIRS:  # pushes_into, inlined: asked beside every hero that has a neighbour
        x, y = pos.x + dx, pos.y + dy
        if 0 <= x < width and 0 <= y < height:
            for entity in at(x, y):
                if get(entity, Kind).name in pushable:
                    ahead.append((dx, dy))
                    break
    if not ahead:
        return []  # the usual case: nothing pushable next to the unit, no board view needed
    view = board(world)
    return [(pos.x + dx, pos.y + dy) for dx, dy in ahead
            if view.line(pos.x, pos.y, dx, dy, view.mask(unit)) is not None]


def push_step(world: World, unit: int, x: int, y: int) -> list[Event]:
    """Step into (x, y), pushing the line ahead; costs one move point. Re-reads the rules."""
    pos = world.get(unit, Position)
    view = board(world)
    if not view.walk(unit, x - pos.x, y - pos.y):
        return []
    world.update(unit, Moves, mp=world.get(unit, Moves).mp - 1)
    events = view.events
    if view.words_moved:
        events += reread_rules(world)
        events += transform_scenery(world)  # a rule formed now acts now, as in a puzzle turn
    return events


def transform_scenery(world: World) -> list[Event]:
    """'X IS Y' on a skirmish map: scenery (rocks, water, blocks, words...) turns into another
    kind, one step at a time. Units and buildings are neither turned nor made: a rule naming
    HERO, MINION, TOWER or HQ on either side is left out."""
    rules = _scenery_turns(world.resource(RULES_KEY, ()))
    if not rules:
        return []  # the usual case, decided without a board view
    view = board(world)
    if not transform(view, rules):
        return []
    events = view.events
    if view.words_moved:  # X IS TEXT, TEXT IS X
        events += reread_rules(world)
    return events


@cache
def _scenery_turns(rules: tuple[str, ...]) -> tuple[str, ...]:
    """The 'NOUN IS NOUN' rules among `rules` that name no unit or building."""
    kinds = noun_kinds()
    found = []
    for rule in rules:
        subject, _is, target = rule.split()
        if subject in kinds and target in kinds and \
                kinds[subject] not in UNIT_KINDS and kinds[target] not in UNIT_KINDS:
            found.append(rule)
    return tuple(found)


def unit_effects(world: World, unit: int) -> tuple[list[Event], bool]:
    """What the unit's cell does to it; returns (events, whether it stands on a WIN cell)."""
    props = world.resource(PROPS_KEY, {})
    pos = world.get(unit, Position)
    own = props.get(world.get(unit, Kind).name, 0)
    others = [e for e in world.at(pos.x, pos.y) if e != unit]
    if not others:
        return [], False  # alone on its cell: nothing acts on it (the usual case)
    view = board(world)
    dies = False
    wins = False
    for entity in others:
        mask = props.get(world.get(entity, Kind).name, 0)
        if mask & Prop.DEFEAT or (mask & Prop.HOT and own & Prop.MELT):
            dies = True
        if mask & Prop.SINK:
            dies = True
            view.destroy(entity, "sank")
        if mask & Prop.WIN:
            wins = True
    if own & Prop.WEAK and others:
        dies = True
    if dies and world.try_get(unit, Health) is not None:
        world.update(unit, Health, hp=0)
        return view.events, False
    return view.events, wins and world.try_get(unit, Team) is not None
