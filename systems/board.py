"""What stands where: one pass over the world that movement, sight and minions share."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from components import Kind, Position, Team
from components.resources import PROPS_KEY, SIZE_KEY
from game.world import World
from systems.rules import Prop
from systems.stats import named

Cell = tuple[int, int]
BUILDINGS = frozenset({"hq", "tower"})
UNITS = frozenset({"hero", "minion"})
# Orthogonal steps in a fixed order (north, east, south, west): every tie is broken by it.
DIRS: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


@dataclass(slots=True)
class Occupancy:
    """Cells nobody may enter (solid), the side of the unit in each cell, cells that block sight,
    and cells a unit may step into but not walk on through (deadly: DEFEAT, SINK, or HOT when
    heroes MELT), since what is there acts on a unit the moment it enters, as on a puzzle thing."""

    width: int
    height: int
    solid: AbstractSet[Cell]
    units: dict[Cell, str]
    opaque: AbstractSet[Cell]
    deadly: AbstractSet[Cell] = frozenset()
    # the cells of the things a unit may push (systems.units_rules.push_moves), when every
    # such thing is scenery (no rule names a unit); None: not worked out
    pushable: AbstractSet[Cell] | None = None

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height


def occupancy(world: World, opaque_kinds: Iterable[str] = ()) -> Occupancy:
    width, height = world.resource(SIZE_KEY)
    props = world.resource(PROPS_KEY, {})
    opaque_names = set(opaque_kinds)
    solid: set[Cell] = set()
    opaque: set[Cell] = set()
    deadly: set[Cell] = set()
    units: dict[Cell, str] = {}
    blocking = Prop.STOP | Prop.PUSH
    # Which kinds block is decided once per call: IntFlag arithmetic per thing is slow.
    solid_names = {name for name, mask in props.items() if mask & blocking}
    # MELT heroes make HOT cells deadly; a side, a class or the minions named MELT do too
    walkers = ("hero", *(noun for noun in named(props) if noun not in BUILDINGS))
    deadly_names = {name for name, mask in props.items() if mask & deadly_mask(props, walkers)}
    for _entity, (pos, kind, team) in world.query(Position, Kind, Team):
        if kind.name in UNITS:
            units[(pos.x, pos.y)] = team.side
    for _entity, (pos, kind) in world.query(Position, Kind):
        name = kind.name
        if name in UNITS:
            continue
        cell = (pos.x, pos.y)
        if name in BUILDINGS:
            solid.add(cell)
            opaque.add(cell)
            continue
        if name in solid_names:
            solid.add(cell)
        elif name in deadly_names:
            deadly.add(cell)
        if name in opaque_names:
            opaque.add(cell)
    return Occupancy(width, height, solid, units, opaque, deadly)


def deadly_mask(props: dict[str, int], walkers: Iterable[str]) -> int:
    """The properties that kill a thing of one of the `walkers` kinds entering their cell:
    DEFEAT, SINK, and HOT when a walker kind is MELT (skirmish heroes, puzzle YOU things)."""
    melts = any(props.get(kind, 0) & _MELT for kind in walkers)
    return _KILLS | _HOT if melts else _KILLS


# As plain ints: IntFlag arithmetic is ten times slower, and searches ask this every state.
_KILLS, _HOT, _MELT = int(Prop.DEFEAT | Prop.SINK), int(Prop.HOT), int(Prop.MELT)


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def line_cells(a: Cell, b: Cell) -> list[Cell]:
    """The cells a straight line from a to b crosses, endpoints excluded (Bresenham)."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    cells = []
    while (x0, y0) != (x1, y1):
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy
        cells.append((x0, y0))
    return cells[:-1]


def in_sight(occ: Occupancy, side: str, a: Cell, b: Cell) -> bool:
    """Whether `side` sees from a to b: buildings, opaque things and enemy units block sight."""
    for cell in line_cells(a, b):
        if cell in occ.opaque:
            return False
        owner = occ.units.get(cell)
        if owner is not None and owner != side:
            return False
    return True


def distance_field(occ: Occupancy, goals: list[Cell]) -> dict[Cell, int]:
    """Steps from every reachable cell to the nearest goal, around solid cells (units ignored)."""
    return grid_distances(goals, occ.solid, occ.width, occ.height)


def grid_distances(goals: Iterable[Cell], solid: AbstractSet[Cell], width: int,
                   height: int) -> dict[Cell, int]:
    """Breadth-first steps from every cell of the board to the nearest goal, round `solid`."""
    dist = {cell: 0 for cell in goals}
    frontier = list(dist)
    step = 0
    while frontier:
        step += 1
        nxt = []
        for x, y in frontier:
            for dx, dy in DIRS:
                cell = (x + dx, y + dy)
                if cell in dist or cell in solid or not (0 <= cell[0] < width
                                                         and 0 <= cell[1] < height):
                    continue
                dist[cell] = step
                nxt.append(cell)
        frontier = nxt
    return dist
