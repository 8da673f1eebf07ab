"""Word rules on skirmish maps: heroes push blocks, words and PUSH units; properties act on
units and buildings (data/properties.yaml says what each does; docs/rules.md has the table).

A hero stepping into a cell of PUSH things shoves the whole line one cell (one move point) if
the line can move. A unit or building is a thing on its cell whose mask is its kind's, its
side's and its class's (systems.stats.unit_mask), and which always counts as YOU: it is pushed
when PUSH; otherwise it stops a push, unless what is pushed into it meets it so that something
is destroyed (`meets`: SINK, WEAK, DEFEAT on YOU, HOT on MELT, OPEN on SHUT, either way). What
shares a cell after a move, a push or a rule change is resolved by `meet`; since DEFEAT and
SINK cells (and HOT ones for MELT heroes) act on whoever enters, walks stop at them
(`Occupancy.deadly`). A hero ending on a WIN cell wins the match for its side.
'X IS Y' turns scenery into scenery, and a kind, side or class of units into scenery (those
units die and the scenery stands in their cell); nothing turns into a unit or building. It acts
when the map loads, when a push spells it, and when a side ends its turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from components import Health, Kind, Moves, Position, Team, UnitClass
from components.resources import PROPS_KEY, RULES_KEY, SIZE_KEY
from game.events import Event, Transformed
from game.world import World
from systems.board import DIRS
from systems.properties import transform
from systems.push import Board, _opens
from systems.rules import Prop, noun_kinds, reread_rules, transformations
from systems.stats import named, unit_mask, unit_nouns
from systems.zobrist import Table

UNIT_KINDS = frozenset({"hero", "minion", "tower", "hq"})
PUSH, STOP, YOU, WIN = int(Prop.PUSH), int(Prop.STOP), int(Prop.YOU), int(Prop.WIN)
SINK, WEAK, HOT, MELT = int(Prop.SINK), int(Prop.WEAK), int(Prop.HOT), int(Prop.MELT)
DEFEAT, OPEN, SHUT = int(Prop.DEFEAT), int(Prop.OPEN), int(Prop.SHUT)
_TABLE = Table(facing=False)


@dataclass(slots=True)
class UnitBoard(Board):
    """A skirmish board: units and buildings are things with their own masks (always YOU)."""

    def mask(self, entity: int) -> int:
        kind = self.world.get(entity, Kind).name
        if kind in UNIT_KINDS:
            return unit_mask(self.world, entity, self.props) | YOU
        return self.props.get(kind, 0)

    def line(self, x: int, y: int, dx: int, dy: int, front: int) -> list[int] | None:
        at, get, props = self.world.at, self.world.get, self.props
        chain: list[int] = []
        while True:
            x += dx
            y += dy
            if not (0 <= x < self.width and 0 <= y < self.height):
                return None
            pushed: list[int] = []
            pushed_mask = 0
            for entity in at(x, y):
                kind = get(entity, Kind).name
                if kind in UNIT_KINDS:
                    mask = unit_mask(self.world, entity, props) | YOU
                    if mask & PUSH:
                        pushed.append(entity)
                        pushed_mask |= mask
                    elif not (chain and meets(front, mask)):
                        return None  # a unit stops a push that would not destroy anything
                    continue
                mask = props.get(kind, 0)
                if mask & PUSH:
                    pushed.append(entity)
                    pushed_mask |= mask
                elif mask & STOP and not _opens(front, mask):
                    return None
            if not pushed:
                return chain
            chain.extend(pushed)
            front = pushed_mask


def meets(a: int, b: int) -> bool:
    """Whether things of masks `a` and `b` in one cell destroy something (units are YOU)."""
    return bool((a | b) & (SINK | WEAK) or (a & DEFEAT and b & YOU) or (b & DEFEAT and a & YOU)
                or (a & HOT and b & MELT) or (b & HOT and a & MELT) or _opens(a, b))


def board(world: World) -> Board:
    width, height = world.resource(SIZE_KEY)
    view = UnitBoard(world, width, height, _TABLE, blockers=UNIT_KINDS)
    view.reload()
    return view


def pushes_into(world: World, x: int, y: int) -> bool:
    """Whether the cell holds something PUSH (so stepping in means pushing)."""
    props = world.resource(PROPS_KEY, {})
    return any(_mask(world, e, props) & PUSH for e in world.at(x, y))


def _mask(world: World, entity: int, props: dict[str, int]) -> int:
    kind = world.get(entity, Kind).name
    return unit_mask(world, entity, props) if kind in UNIT_KINDS else props.get(kind, 0)


_pushable: tuple[Any, frozenset[str]] = (None, frozenset())  # (masks, their PUSH kinds)


def pushable_kinds(props: dict[str, int]) -> frozenset[str]:
    """The kinds `props` makes PUSH, worked out once per masks (a rule change sets new ones;
    the dict is never changed in place); with every unit kind when a rule names a unit (its
    side or class may make it PUSH: `push_moves` asks the unit's own mask)."""
    global _pushable
    if _pushable[0] is not props:
        kinds = {kind for kind, mask in props.items() if mask & PUSH}
        if named(props):
            kinds |= UNIT_KINDS
        _pushable = (props, frozenset(kinds))
    return _pushable[1]


def push_moves(world: World, unit: int) -> list[tuple[int, int]]:
    """Adjacent cells the unit can step into by pushing the line of PUSH things there."""
    if world.get(unit, Moves).mp < 1:
        return []
    props = world.resource(PROPS_KEY, {})
    pushable = pushable_kinds(props)
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
                kind = get(entity, Kind).name
                if kind in pushable and (kind not in UNIT_KINDS
                                         or unit_mask(world, entity, props) & PUSH):
                    ahead.append((dx, dy))
                    break
    if not ahead:
        return []  # the usual case: nothing pushable next to the unit, no board view needed
    view = board(world)
    return [(pos.x + dx, pos.y + dy) for dx, dy in ahead
            if view.line(pos.x, pos.y, dx, dy, view.mask(unit)) is not None]


def push_step(world: World, unit: int, x: int, y: int) -> list[Event]:
    """Step into (x, y), pushing the line ahead; costs one move point. Re-reads the rules;
    what the push brought together is resolved after (with the rules it formed)."""
    pos = world.get(unit, Position)
    view = board(world)
    if not view.walk(unit, x - pos.x, y - pos.y):
        return []
    world.update(unit, Moves, mp=world.get(unit, Moves).mp - 1)
    events = view.events
    cells = sorted(view.touched, key=lambda c: (c[1], c[0]))
    if view.words_moved:
        changed = reread_rules(world)
        events += changed
        events += transform_scenery(world)  # a rule formed now acts now, as in a puzzle turn
        if changed:
            events += meet_everywhere(world)
            return events
    for cx, cy in cells:
        events += meet(world, cx, cy)[0]
    return events


def transform_scenery(world: World) -> list[Event]:
    """'X IS Y' on a skirmish map, one step at a time: scenery (rocks, water, blocks, words...)
    turns into another kind, and units named by kind, side or class (HERO, MINION, TOWER, HQ,
    RED, BLUE, RANGER...) turned into scenery die, the scenery standing in their cell. Nothing
    turns into a unit, a building, a side or a class: such rules are left out."""
    rules = world.resource(RULES_KEY, ())
    scenery, units = _scenery_turns(rules), _unit_turns(rules)
    if not scenery and not units:
        return []  # the usual case, decided without a board view
    events: list[Event] = []
    if units:
        events += _turn_units(world, units)
    if not scenery:
        return events
    view = board(world)
    if not transform(view, scenery):
        return events
    events += view.events
    if view.words_moved:  # X IS TEXT, TEXT IS X
        events += reread_rules(world)
    return events


@cache
def _scenery_turns(rules: tuple[str, ...]) -> tuple[str, ...]:
    """The 'NOUN IS NOUN' rules among `rules` that name no unit, building, side or class."""
    kinds, units = noun_kinds(), unit_nouns()
    found = []
    for rule in rules:
        subject, _is, target = rule.split()
        if subject in kinds and target in kinds and \
                kinds[subject] not in units and kinds[target] not in units:
            found.append(rule)
    return tuple(found)


@cache
def _unit_turns(rules: tuple[str, ...]) -> dict[str, str]:
    """Unit noun -> the scenery kind its units turn into (the first such rule; 'X IS X' keeps
    them), from the rules naming units on the left and scenery (not TEXT) on the right."""
    units = unit_nouns()
    found = {}
    for noun, targets in transformations(rules).items():
        scenery = [t for t in targets if t not in units and t != "text"]
        if noun in units and scenery:
            found[noun] = scenery[0]
    return found


def _turn_units(world: World, turns: dict[str, str]) -> list[Event]:
    """Units named in `turns` die (hp 0: the deaths check takes them) and leave scenery."""
    events: list[Event] = []
    for entity, (kind, team, health, pos) in list(world.query(Kind, Team, Health, Position)):
        if health.hp <= 0:
            continue
        cls = world.try_get(entity, UnitClass)
        new = turns.get(kind.name) or turns.get(team.side) or \
            (turns.get(cls.name) if cls is not None else None)
        if new is None:
            continue
        world.update(entity, Health, hp=0)
        world.spawn(Position(pos.x, pos.y), Kind(new))
        events.append(Transformed(entity, kind.name, new))
    return events


def meet(world: World, x: int, y: int) -> tuple[list[Event], set[int]]:
    """Resolve what shares the cell (x, y) when a unit or building is among them: returns the
    events and the heroes there that stand on a WIN thing. A unit dies (hp 0) on DEFEAT, SINK
    or (if MELT) HOT things, when it is WEAK or SINK itself, or meets its OPEN/SHUT opposite;
    scenery goes when it is SINK or WEAK, meets a SINK unit, is MELT beside a HOT unit, is YOU
    beside a DEFEAT unit, or meets its OPEN/SHUT opposite."""
    here = list(world.at(x, y))
    if len(here) < 2:
        return [], set()
    props = world.resource(PROPS_KEY, {})
    masks = {}
    units = []
    for entity in here:
        if world.get(entity, Kind).name in UNIT_KINDS:
            masks[entity] = unit_mask(world, entity, props) | YOU
            units.append(entity)
        else:
            masks[entity] = _mask(world, entity, props)
    if not units:
        return [], set()
    view = board(world)
    dying: list[int] = []
    winners: set[int] = set()
    doomed: list[int] = []  # scenery to destroy, with the cause
    causes: dict[int, str] = {}
    for unit in units:
        u = masks[unit]
        for other in here:
            if other == unit:
                continue
            o = masks[other]
            dies = o & (DEFEAT | SINK) or (o & HOT and u & MELT) or u & (WEAK | SINK)
            if (dies or _opens(u, o)) and unit not in dying:
                dying.append(unit)
            if o & WIN and world.get(unit, Kind).name == "hero":
                winners.add(unit)
            if other in units:
                continue
            cause = ("sank" if o & SINK or u & SINK else "broke" if o & WEAK else
                     "melted" if u & HOT and o & MELT else "defeated" if u & DEFEAT and o & YOU
                     else "opened" if _opens(u, o) else "")
            if cause and other not in causes:
                causes[other] = cause
                doomed.append(other)
    for unit in dying:
        world.update(unit, Health, hp=0)
        winners.discard(unit)
    for other in doomed:
        view.destroy(other, causes[other])
    events = view.events
    if view.words_moved:
        events += reread_rules(world)
    return events, winners


def meet_everywhere(world: World) -> list[Event]:
    """`meet` on every cell a unit or building shares (after the rules changed)."""
    cells = sorted({(p.x, p.y) for _e, (p, _h) in world.query(Position, Health)
                    if len(world.at(p.x, p.y)) > 1}, key=lambda c: (c[1], c[0]))
    events: list[Event] = []
    for x, y in cells:
        events += meet(world, x, y)[0]
    return events


def unit_effects(world: World, unit: int) -> tuple[list[Event], bool]:
    """What the unit's cell does to it; returns (events, whether it stands on a WIN cell)."""
    pos = world.get(unit, Position)
    if len(world.at(pos.x, pos.y)) < 2:
        return [], False  # alone on its cell: nothing acts on it (the usual case)
    events, winners = meet(world, pos.x, pos.y)
    return events, unit in winners and world.try_get(unit, Team) is not None
