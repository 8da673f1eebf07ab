"""Pushing: a thing steps one cell and shoves the whole line of PUSH things ahead of it.

`Board` is the view one turn works through: it reads kinds and property masks, moves things
(keeping the facing and the board hash in step) and records events. A line moves only if every
cell of it can move: the map edge and STOP things block (a thing that is PUSH and STOP is
pushed; an OPEN thing may enter a SHUT one's cell, where both will be destroyed).

Puzzle boards also keep a kind index (`KINDS_KEY`: kind -> ids, a journaled resource replaced
whenever a thing is destroyed or changes kind), so a turn finds its YOU, MOVE or SINK things
without walking every wall of a big level, and the cells things entered during the turn
(`touched`), where new meetings can happen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from components import Facing, Kind, Position, Word
from components.resources import KINDS_KEY, PROPS_KEY
from game.events import Destroyed, Event, Moved, Pushed
from game.world import World
from systems.rules import Prop
from systems.zobrist import FACINGS, Table, facing_index, label

PUSH, STOP, OPEN, SHUT = int(Prop.PUSH), int(Prop.STOP), int(Prop.OPEN), int(Prop.SHUT)

Cell = tuple[int, int]


def index_kinds(world: World) -> None:
    """Store the kind index afresh (on setup, and after things change kind)."""
    index: dict[str, list[int]] = {}
    for entity, kind in world.query(Kind):
        index.setdefault(kind.name, []).append(entity)
    world.set_resource(KINDS_KEY, {name: tuple(ids) for name, ids in index.items()})


@dataclass(slots=True)
class Board:
    """One turn's working view of a grid of things: masks, moves, hash delta and events."""

    world: World
    width: int
    height: int
    table: Table
    props: dict[str, int] = field(default_factory=dict)
    delta: int = 0
    words_moved: bool = False
    blockers: frozenset[str] = frozenset()  # kinds that stop any push (skirmish units)
    events: list[Event] = field(default_factory=list)
    touched: set[Cell] = field(default_factory=set)  # cells something entered this turn
    word_moves: list[tuple[Cell, Cell | None]] = field(default_factory=list)  # (from, to)

    def reload(self) -> None:
        self.props = self.world.resource(PROPS_KEY, {})

    def kind(self, entity: int) -> str:
        return self.world.get(entity, Kind).name

    def mask(self, entity: int) -> int:
        return self.props.get(self.world.get(entity, Kind).name, 0)

    def number(self, entity: int) -> int:
        pos = self.world.get(entity, Position)
        return self.table.number(label(self.world, entity), pos.x, pos.y,
                                 facing_index(self.world, entity))

    def of_kinds(self, kinds: Sequence[str]) -> list[int]:
        """The things of these kinds, in id order (needs the kind index)."""
        index = self.world.resource(KINDS_KEY)
        if len(kinds) == 1:
            return list(index.get(kinds[0], ()))
        found = [entity for kind in kinds for entity in index.get(kind, ())]
        found.sort()
        return found

    def having(self, flag: int) -> list[int]:
        """The things whose kind has property `flag`, in id order (needs the kind index)."""
        return self.of_kinds(kinds_with(self.props, flag))

    # -- pushing -----------------------------------------------------------------------

    def line(self, x: int, y: int, dx: int, dy: int, front: int) -> list[int] | None:
        """The things a thing at (x, y) with mask `front` must push to step (dx, dy),
        nearest first, or None when the way is blocked."""
        at = self.world.at
        props = self.props
        get = self.world.get
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
                mask = props.get(kind, 0)
                if kind in self.blockers:
                    return None
                if mask & PUSH:
                    pushed.append(entity)
                    pushed_mask |= mask
                elif mask & STOP and not _opens(front, mask):
                    return None
            if not pushed:
                return chain
            chain.extend(pushed)
            front = pushed_mask

    def walk(self, entity: int, dx: int, dy: int) -> bool:
        """Step `entity` one cell, pushing the line ahead; False (nothing moves) if blocked."""
        pos = self.world.get(entity, Position)
        chain = self.line(pos.x, pos.y, dx, dy, self.mask(entity))
        if chain is None:
            return False
        for thing in reversed(chain):
            self.shift(thing, dx, dy, pushed=True)
        self.shift(entity, dx, dy, pushed=False)
        return True

    def shift(self, entity: int, dx: int, dy: int, pushed: bool) -> None:
        """Move one thing one cell and turn it to face the way it moved."""
        world = self.world
        get = world.get
        pos = get(entity, Position)
        x0, y0 = pos.x, pos.y
        kind = get(entity, Kind).name
        name = "text:" + get(entity, Word).text if kind == "text" else kind
        # Facing only matters where something can MOVE; elsewhere it is not worth a write.
        facing = world.try_get(entity, Facing) if self.table.facing else None
        old_facing = 1 if facing is None else FACINGS[(facing.dx, facing.dy)]
        number = self.table.number
        self.delta -= number(name, x0, y0, old_facing)
        world.move(entity, x0 + dx, y0 + dy)
        new_facing = old_facing
        if facing is not None and (facing.dx != dx or facing.dy != dy):
            world.update(entity, Facing, dx=dx, dy=dy)
            new_facing = FACINGS[(dx, dy)]
        self.delta += number(name, x0 + dx, y0 + dy, new_facing)
        self.touched.add((x0 + dx, y0 + dy))
        if kind == "text":
            self.words_moved = True
            self.word_moves.append(((x0, y0), (x0 + dx, y0 + dy)))
        self.events.append((Pushed if pushed else Moved)(entity, x0, y0, x0 + dx, y0 + dy))

    def turn(self, entity: int, dx: int, dy: int) -> None:
        """Face a new way without moving (a blocked MOVE thing turning round)."""
        before = self.number(entity)
        self.world.update(entity, Facing, dx=dx, dy=dy)
        self.delta += self.number(entity) - before

    def destroy(self, entity: int, cause: str) -> None:
        world = self.world
        if not world.alive(entity):
            return
        self.delta -= self.number(entity)
        kind = world.get(entity, Kind).name
        if kind == "text":
            self.words_moved = True
            pos = world.get(entity, Position)
            self.word_moves.append(((pos.x, pos.y), None))
        world.destroy(entity)
        index = world.resource(KINDS_KEY)
        if index is not None:
            index = dict(index)
            index[kind] = tuple(e for e in index[kind] if e != entity)
            world.set_resource(KINDS_KEY, index)
        self.events.append(Destroyed(entity, kind, cause))


_kinds_cache: dict[tuple[int, int], tuple[dict[str, int], list[str]]] = {}


def kinds_with(props: dict[str, int], flag: int) -> list[str]:
    """The kinds whose mask has `flag`. Cached by the identity of `props`: a masks dict is
    never changed once stored (a rule change stores a new one), and the cached entry keeps it
    alive so its id is not reused."""
    key = (id(props), flag)
    hit = _kinds_cache.get(key)
    if hit is not None and hit[0] is props:
        return hit[1]
    if len(_kinds_cache) > 4096:
        _kinds_cache.clear()
    kinds = [kind for kind, mask in props.items() if mask & flag]
    _kinds_cache[key] = (props, kinds)
    return kinds


def _opens(front: int, blocker: int) -> bool:
    """Whether an OPEN thing meets a SHUT one (or the reverse): both go, nothing blocks."""
    return bool((front & OPEN and blocker & SHUT) or (front & SHUT and blocker & OPEN))
