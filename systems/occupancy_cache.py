"""Occupancy without rescanning the scenery: walls, water and buildings are reused while the
journal proves they have not changed.

`occupancy()` walks every thing on the map; most of them (rocks, water, words, buildings) never
move in a fight, yet a search asks for the occupancy tens of thousands of times. This cache
keeps the static part (solid and opaque cells of everything that is not a unit) together with
the journal point it was computed at. For a later state whose journal still contains that
point, the entries written since are scanned: if none touched a static thing (moved, removed,
retyped), a changed rule mask or the board size, the static part is reused and only the units
are read again. Anything else recomputes it in full, so the answer always equals occupancy().
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from components import Kind, Position, Team
from components.resources import PROPS_KEY, SIZE_KEY
from game.journal import ADD, MOVE, REMOVE, RESOURCE, SET, SPAWN
from game.world import World
from systems.board import UNITS, Occupancy, occupancy
from systems.stats import named
from systems.units_rules import pushable_kinds

_WATCHED_RESOURCES = frozenset({PROPS_KEY, SIZE_KEY})


class OccupancyCache:
    """Per-world memory of the static cells; `get(world)` equals `occupancy(world, opaque)`."""

    def __init__(self, opaque_kinds: Iterable[str]) -> None:
        self.opaque_kinds = tuple(opaque_kinds)
        # Journal points (oldest first) where the static part is known to hold; all lie on the
        # current line of play, so the newest ancestor is close and little is left to scan.
        self.tokens: list[tuple[int, int, Any]] = []
        self.world: World | None = None
        self.static_ids: frozenset[int] = frozenset()
        self.solid: frozenset[tuple[int, int]] = frozenset()
        self.opaque: frozenset[tuple[int, int]] = frozenset()
        self.deadly: frozenset[tuple[int, int]] = frozenset()
        self.pushable: frozenset[tuple[int, int]] | None = None

    def get(self, world: World) -> Occupancy:
        """A fresh Occupancy whose solid and opaque sets may be shared: do not mutate them."""
        if not self._still_valid(world):
            self._rebuild(world)
        units: dict[tuple[int, int], str] = {}
        for _entity, (pos, kind, team) in world.query(Position, Kind, Team):
            if kind.name in UNITS:
                units[(pos.x, pos.y)] = team.side
        width, height = world.resource(SIZE_KEY)
        return Occupancy(width, height, self.solid, units, self.opaque, self.deadly,
                         self.pushable)

    def _rebuild(self, world: World) -> None:
        full = occupancy(world, self.opaque_kinds)
        # the very sets of before when they are the same cells: what is kept against them (a
        # unit's reach field, the board's steps) then stands
        solid, opaque, deadly = frozenset(full.solid), frozenset(full.opaque), \
            frozenset(full.deadly)
        self.solid = self.solid if solid == self.solid else solid
        self.opaque = self.opaque if opaque == self.opaque else opaque
        self.deadly = self.deadly if deadly == self.deadly else deadly
        self.static_ids = frozenset(e for e, (_p, kind) in world.query(Position, Kind)
                                    if kind.name not in UNITS)
        # what may be pushed is scenery, and so static, unless a rule names a unit
        props = world.resource(PROPS_KEY, {})
        kinds = pushable_kinds(props)
        self.pushable = None if named(props) else frozenset(
            (pos.x, pos.y) for _e, (pos, kind) in world.query(Position, Kind)
            if kind.name in kinds)
        self.tokens = [world.version()]
        self.world = world

    def _still_valid(self, world: World) -> bool:
        if self.world is not world:
            return False
        tokens = self.tokens
        while tokens and not world.is_ancestor(tokens[-1]):
            tokens.pop()  # a line of play that was undone
        if not tokens:
            return False
        if self._untouched(world, tokens[-1][1]):
            now = world.version()
            if now[1] > tokens[-1][1]:
                tokens.append(now)
                if len(tokens) > 512:  # a long game: the oldest points are never needed again
                    del tokens[:256]
            return True
        return False

    def _untouched(self, world: World, mark: int) -> bool:
        """Whether nothing written since `mark` changed a static thing: none moved, lost a
        component or changed kind, no new thing that is not a unit, the same rules and size."""
        static = self.static_ids
        # the entries read straight (one to a few after a command): what touched_since would
        # decode, without building its dictionaries
        for entry in world.changes_since(mark):
            op = entry[0]
            if op == SET:
                if type(entry[2]) is Kind:
                    return False
            elif op in (MOVE, REMOVE):
                if entry[1] in static:
                    return False
            elif op == RESOURCE:
                if entry[1] in _WATCHED_RESOURCES:
                    return False
            elif op in (SPAWN, ADD):
                entity = entry[1]
                kind = world.try_get(entity, Kind) if world.alive(entity) else None
                if kind is None or kind.name not in UNITS:
                    return False
        return True
